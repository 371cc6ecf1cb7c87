import ExcelJS from 'exceljs';

/**
 * Reads a downloaded workbook back as the office would see it: the first sheet, its header row,
 * every data row as header → value, and a lookup of one row by the value of its first column.
 */
export async function readWorkbook(body: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const headers = (sheet.getRow(1).values as ExcelJS.CellValue[]).slice(1).map(String);
  const rows: Record<string, ExcelJS.CellValue>[] = [];
  sheet.eachRow((row, number) => {
    if (number === 1) return;
    rows.push(Object.fromEntries(headers.map((header, index) => [header, row.getCell(index + 1).value])));
  });
  const rowOf = (firstCell: string) => {
    const found = rows.find((row) => row[headers[0]!] === firstCell);
    if (!found) throw new Error(`no row for ${firstCell}`);
    return (header: string) => found[header];
  };
  return { workbook, sheet, headers, rows, rowOf };
}
