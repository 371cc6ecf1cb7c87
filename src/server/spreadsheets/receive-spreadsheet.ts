import type { FastifyRequest } from 'fastify';
import { AppError, badRequest } from '../http/errors.js';

/** Whether a file's name and type say XLSX or CSV. */
function isSpreadsheetUpload(fileName: string, mimeType: string): boolean {
  return /\.(xlsx|csv)$/i.test(fileName) || /spreadsheetml|text\/csv|application\/csv/.test(mimeType);
}

/**
 * The uploaded spreadsheet of an import request (multipart field "file"): its name and bytes, or
 * the refusal a clerk understands (415 not multipart or not XLSX/CSV, 413 over the upload limit,
 * 400 no file). The route's plugin registers @fastify/multipart with that limit.
 */
export async function receiveSpreadsheet(request: FastifyRequest, uploadMaxBytes: number): Promise<{ fileName: string; bytes: Buffer }> {
  if (!request.isMultipart()) {
    throw new AppError(415, 'unsupported_media_type', 'Send the file as multipart/form-data in the field "file".');
  }
  const file = await request.file();
  if (!file) throw badRequest('Please select a file!');
  if (!isSpreadsheetUpload(file.filename, file.mimetype)) {
    // Drain the upload so the connection stays usable, then refuse.
    file.file.resume();
    throw new AppError(415, 'unsupported_media_type', 'Choose an .xlsx or .csv file.');
  }
  try {
    return { fileName: file.filename, bytes: await file.toBuffer() };
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError(413, 'payload_too_large', `The file is larger than ${Math.round(uploadMaxBytes / 1024 / 1024)} MB.`);
    }
    throw error;
  }
}
