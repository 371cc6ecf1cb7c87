import { queryOptions, useIsMutating, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  DeleteFileAnswerSchema,
  StoreFileAnswerSchema,
  UploadedFileListSchema,
  type DocumentType,
  type StoreFileAnswer,
  type UploadedFile,
} from '../../shared/documents.schemas.js';
import { ApiError, apiRequest, errorFromBody, fetchCsrfCookie, readCookie, UNREACHABLE_MESSAGE } from '../lib/api-client.js';
import { BACKGROUND_QUERY } from '../lib/query-meta.js';
import { sessionQuery, studentShownTo } from '../lib/session.js';
import { preparePhoto } from '../lib/prepare-photo.js';

/** The file calls (docs/requirements.md R7, R15): one fetcher and one hook per call. */

// ---- GET /api/get-files/{student_id} -----------------------------------------------------------

export const filesKey = (studentId: string) => ['documents', studentId] as const;

export function getFiles(studentId: string, signal?: AbortSignal): Promise<UploadedFile[]> {
  return apiRequest(`/api/get-files/${encodeURIComponent(studentId)}`, { schema: UploadedFileListSchema, ...(signal ? { signal } : {}) });
}

export function filesQuery(studentId: string) {
  return queryOptions({ queryKey: filesKey(studentId), queryFn: ({ signal }) => getFiles(studentId, signal), staleTime: 0 });
}

export function useFiles(studentId: string) {
  return useQuery(filesQuery(studentId));
}

/**
 * The Documents step's loader (app/router.tsx): the files of the record shown (the signed-in
 * student's, or a family account's chosen child's); a failure is the screen's to show.
 */
export async function loadDocuments(queryClient: QueryClient, url: URL): Promise<null> {
  const { user } = await queryClient.ensureQueryData(sessionQuery);
  const studentId = user?.role === 'staff' ? null : studentShownTo(user, url.searchParams);
  if (studentId) await queryClient.ensureQueryData(filesQuery(studentId)).catch(() => undefined);
  return null;
}

// ---- POST /api/store-file ----------------------------------------------------------------------

export interface UploadRequest {
  studentId: string;
  fileType: DocumentType;
  file: Blob & { name?: string };
  /** 0..1 as the bytes leave the browser (R7: upload progress). */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

function sendUpload(request: UploadRequest): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    // The id and type first: the server refuses a wrong or closed upload before reading the file.
    form.append('id', request.studentId);
    form.append('file_type', request.fileType);
    form.append('file', request.file, request.file.name ?? 'document');
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/store-file');
    xhr.setRequestHeader('Accept', 'application/json');
    const token = readCookie('XSRF-TOKEN');
    if (token !== null) xhr.setRequestHeader('X-XSRF-TOKEN', token);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) request.onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () =>
      reject(new ApiError(0, { code: 'internal', message: UNREACHABLE_MESSAGE }));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    request.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

function errorOf(status: number, text: string): ApiError {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's page): fall back to the status.
  }
  return errorFromBody(status, json, `The upload failed (HTTP ${status}).`);
}

/**
 * Uploads one file with XMLHttpRequest, whose upload events give the progress bar its value
 * (fetch has none), sending the CSRF header as every other state-changing call does.
 */
export async function uploadDocument(request: UploadRequest): Promise<StoreFileAnswer> {
  if (readCookie('XSRF-TOKEN') === null) await fetchCsrfCookie();
  let answer = await sendUpload(request);
  if (answer.status === 403 && errorOf(answer.status, answer.text).code === 'csrf_failed') {
    // A rotated token is refused once without effect; fetch a fresh one and send again.
    await fetchCsrfCookie();
    request.onProgress?.(0);
    answer = await sendUpload(request);
  }
  if (answer.status < 200 || answer.status >= 300) throw errorOf(answer.status, answer.text);
  const parsed = StoreFileAnswerSchema.safeParse(JSON.parse(answer.text));
  if (!parsed.success) throw new ApiError(answer.status, { code: 'internal', message: 'The server sent an answer this page did not expect.' });
  return parsed.data;
}

/** Every upload of the Documents step, whichever slot or child: what a leave warning asks about. */
const UPLOAD_KEY = ['documents', 'upload'] as const;

/**
 * Whether a document is being prepared or sent right now, on any slot (D74): the Documents
 * screen's `uploading` state. A warning before leaving the page reads it; the upload would be lost.
 */
export function useDocumentUploadsInProgress(): boolean {
  return useIsMutating({ mutationKey: UPLOAD_KEY }) > 0;
}

/** What a slot asks to upload: the file chosen, and where to report each phase. */
export interface SlotUpload {
  fileType: DocumentType;
  file: File;
  /** The photo is being made smaller in the browser (before any byte is sent). */
  onPreparing?: () => void;
  /** 0..1 as the bytes leave the browser (0 as soon as sending starts). */
  onProgress?: (fraction: number) => void;
}

/**
 * Uploads into a slot: a photo is made smaller first (lib/prepare-photo.ts), then sent; the list
 * follows, and `onStored` (the record's progress flags).
 */
export function useUploadDocument(studentId: string, onStored: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...UPLOAD_KEY, studentId],
    mutationFn: async ({ fileType, file, onPreparing, onProgress }: SlotUpload) => {
      onPreparing?.();
      const prepared = await preparePhoto(file);
      onProgress?.(0);
      return uploadDocument({ studentId, fileType, file: prepared, ...(onProgress ? { onProgress } : {}) });
    },
    // The slot shows its own progress bar; the page overlay stays down.
    meta: BACKGROUND_QUERY,
    onSuccess: (answer) => {
      queryClient.setQueryData<UploadedFile[]>(filesKey(studentId), (old) => [
        ...(old ?? []).filter((file) => file.type !== answer.file.type),
        answer.file,
      ]);
      onStored();
    },
  });
}

// ---- DELETE /api/file --------------------------------------------------------------------------

export function deleteDocument(studentId: string, file: Pick<UploadedFile, 'type' | 'name'>) {
  const query = new URLSearchParams({ id: studentId, fileName: file.name, fileType: file.type });
  return apiRequest(`/api/file?${query.toString()}`, { method: 'DELETE', schema: DeleteFileAnswerSchema });
}

export function useDeleteDocument(studentId: string, onStored: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: Pick<UploadedFile, 'type' | 'name'>) => deleteDocument(studentId, file),
    onSuccess: (_answer, file) => {
      queryClient.setQueryData<UploadedFile[]>(filesKey(studentId), (old) => (old ?? []).filter((item) => item.type !== file.type));
      onStored();
    },
  });
}
