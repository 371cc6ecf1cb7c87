import { useMutation } from '@tanstack/react-query';
import { ApiError, errorFromBody, UNREACHABLE_MESSAGE } from './api-client.js';
import { BACKGROUND_QUERY } from './query-meta.js';
import { saveFile } from './save-file.js';

/** A file the server makes, fetched and saved: the student list's and Export Data's downloads. */

async function errorOf(response: Response): Promise<ApiError> {
  const json: unknown = await response.json().catch(() => undefined);
  return errorFromBody(response.status, json, `The download failed (HTTP ${response.status}).`);
}

/**
 * Downloads a file the server makes (the registration spreadsheet, a call list) and saves it under `fileName`.
 * Resolves once the browser has the whole file, so a dialog can block until then (R11, Export Data).
 */
export async function downloadFile(url: string, fileName: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'include' });
  } catch {
    throw new ApiError(0, { code: 'internal', message: UNREACHABLE_MESSAGE });
  }
  if (!response.ok) throw await errorOf(response);
  const blob = await response.blob();
  saveFile([blob], fileName, blob.type);
}

export function useDownloadFile() {
  return useMutation({ mutationFn: ({ url, fileName }: { url: string; fileName: string }) => downloadFile(url, fileName), meta: BACKGROUND_QUERY });
}
