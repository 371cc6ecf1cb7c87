/**
 * Saves bytes the page holds as a file under `fileName` (a link with `download`, clicked): for
 * files the page fetched or assembled itself (an export, a class's family letters, a report-day
 * build read from a stream, D59).
 */
export function saveFile(parts: BlobPart[], fileName: string, type: string): void {
  const href = URL.createObjectURL(new Blob(parts, { type }));
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser a moment to start saving before the bytes are released.
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
