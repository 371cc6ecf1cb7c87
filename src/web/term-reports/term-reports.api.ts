import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  GradingSettingsSchema,
  ImportReportSchema,
  PostedTermReportListSchema,
  PostedTermReportSchema,
  ReportCardBuildEventSchema,
  ReportCardTermListSchema,
  SubjectListSchema,
  type ImportReport,
  type PostTermReportsInput,
  type PostedTermReport,
  type ReportCardBuildEvent,
  type ScheduleTermReportsInput,
} from '../../shared/term-reports.schemas.js';
import { ApiError, apiRequest, fileForm, send, toApiError } from '../lib/api-client.js';
import { saveFile } from '../lib/save-file.js';
import { BACKGROUND_QUERY } from '../lib/query-meta.js';
import { sessionQuery, studentShownTo } from '../lib/session.js';

/** The term report calls (docs/requirements.md R9, R15): one fetcher and one hook per call, and the list's loader. */

// ---- GET /api/report-card-terms/{userID} ---------------------------------------------------------

export const reportCardTermsKey = (studentId: string) => ['report-card-terms', studentId] as const;

export function getReportCardTerms(studentId: string, signal?: AbortSignal) {
  return apiRequest(`/api/report-card-terms/${encodeURIComponent(studentId)}`, {
    schema: ReportCardTermListSchema,
    ...(signal ? { signal } : {}),
  });
}

export function reportCardTermsQuery(studentId: string) {
  return queryOptions({ queryKey: reportCardTermsKey(studentId), queryFn: ({ signal }) => getReportCardTerms(studentId, signal) });
}

/** The student's term reports, posted or not (the list greys out what is not posted). */
export function useReportCardTerms(studentId: string | null) {
  return useQuery({ ...reportCardTermsQuery(studentId ?? ''), enabled: studentId !== null });
}

/** The /term-reports route's loader (app/router.tsx); a failure is the screen's to show. */
export async function loadTermReports(queryClient: QueryClient, url: URL): Promise<null> {
  const { user } = await queryClient.ensureQueryData(sessionQuery);
  const studentId = studentShownTo(user, url.searchParams);
  if (studentId) await queryClient.ensureQueryData(reportCardTermsQuery(studentId)).catch(() => undefined);
  return null;
}

// ---- GET /api/term-reports-posted, POST /api/post-term-reports, POST /api/term-reports/schedule ----

export const postedTermsKey = ['term-reports-posted'] as const;

export function getPostedTerms(signal?: AbortSignal) {
  return apiRequest('/api/term-reports-posted', { schema: PostedTermReportListSchema, ...(signal ? { signal } : {}) });
}

export function usePostedTerms() {
  return useQuery({ queryKey: postedTermsKey, queryFn: ({ signal }) => getPostedTerms(signal), staleTime: 10_000 });
}

export function postTermReports(input: PostTermReportsInput) {
  return apiRequest('/api/post-term-reports', { method: 'POST', body: input, schema: PostedTermReportSchema });
}

/** Replaces one term's row in the cached table with the server's answer. */
function useUpdateCachedTerm() {
  const queryClient = useQueryClient();
  return (answer: PostedTermReport) => {
    queryClient.setQueryData<PostedTermReport[]>(postedTermsKey, (list) =>
      list?.map((row) => (row.year === answer.year && row.term === answer.term ? answer : row)),
    );
    void queryClient.invalidateQueries({ queryKey: ['report-card-terms'] });
  };
}

/** Post or remove; the dialog shows its own progress (R9), so the page overlay stays down. */
export function usePostTermReports() {
  const update = useUpdateCachedTerm();
  return useMutation({ mutationFn: postTermReports, meta: BACKGROUND_QUERY, onSuccess: update });
}

export function scheduleTermReports(input: ScheduleTermReportsInput) {
  return apiRequest('/api/term-reports/schedule', { method: 'POST', body: input, schema: PostedTermReportSchema });
}

export function useScheduleTermReports() {
  const update = useUpdateCachedTerm();
  return useMutation({ mutationFn: scheduleTermReports, meta: BACKGROUND_QUERY, onSuccess: update });
}

// ---- the results import ------------------------------------------------------------------------

/** The subjects results are given in, for the mark sheet chooser. */
export function useSubjects() {
  return useQuery({
    queryKey: ['term-results-subjects'],
    queryFn: ({ signal }) => apiRequest('/api/term-results/subjects', { schema: SubjectListSchema, ...(signal ? { signal } : {}) }),
    staleTime: 5 * 60_000,
  });
}

export function useGradingSettings() {
  return useQuery({
    queryKey: ['term-results-grading'],
    queryFn: ({ signal }) => apiRequest('/api/term-results/grading', { schema: GradingSettingsSchema, ...(signal ? { signal } : {}) }),
    staleTime: 60_000,
  });
}

/** Checks (dry run) or imports a term results file (multipart) into a year and term. */
export function importTermResults(file: File, input: { year: number; term: number; dryRun: boolean }): Promise<ImportReport> {
  const query = new URLSearchParams({ year: String(input.year), term: String(input.term), dryRun: input.dryRun ? '1' : '0' });
  return apiRequest(`/api/term-results/import?${query.toString()}`, { method: 'POST', body: fileForm(file), schema: ImportReportSchema });
}

export function useImportTermResults() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, ...input }: { file: File; year: number; term: number; dryRun: boolean }) => importTermResults(file, input),
    onSuccess: (report) => {
      if (report.committed) {
        void queryClient.invalidateQueries({ queryKey: postedTermsKey });
        void queryClient.invalidateQueries({ queryKey: ['report-card-terms'] });
      }
    },
  });
}

// ---- report day: GET /api/report-cards/class/… and /form/… (D59) --------------------------------

/** How far a report-day build has come, as the server last said. */
export interface CardBuildProgress {
  done: number;
  total: number;
  /** The class whose cards are being made. */
  classId: string | null;
  /** The file is made and on its way (the cards are all done). */
  sending: boolean;
}

const CUT_OFF = 'The download stopped before the file was complete. Try again.';

/**
 * Builds a class's cards (one PDF) or a form's (a zip) and saves the file: reads the server's
 * JSON lines as they come, telling `onProgress` each step, and saves the file once it is whole.
 * A refusal before the build is the server's error body; a failure during it, its `error` line.
 */
export async function buildReportCards(url: string, onProgress: (progress: CardBuildProgress) => void, signal?: AbortSignal): Promise<string> {
  const response = await send(url, { method: 'GET', headers: { Accept: 'application/x-ndjson' }, ...(signal ? { signal } : {}) });
  if (!response.ok) throw await toApiError(response);
  if (!response.body) throw new ApiError(response.status, { code: 'internal', message: CUT_OFF });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  let start: Extract<ReportCardBuildEvent, { type: 'start' }> | null = null;
  let progress: CardBuildProgress = { done: 0, total: 0, classId: null, sending: false };
  let pending = '';
  const handle = (line: string): boolean => {
    const parsed = ReportCardBuildEventSchema.safeParse(JSON.parse(line));
    if (!parsed.success) throw new ApiError(response.status, { code: 'internal', message: 'The server sent an answer this page did not expect.' });
    const event = parsed.data;
    if (event.type === 'error') throw new ApiError(response.status, { code: 'internal', message: event.message });
    if (event.type === 'start') {
      start = event;
      progress = { ...progress, total: event.total };
    } else if (event.type === 'progress') {
      progress = { ...progress, done: event.done, total: event.total, classId: event.class_id, sending: false };
    } else if (event.type === 'data') {
      const bytes = Uint8Array.from(atob(event.base64), (c) => c.charCodeAt(0));
      parts.push(bytes);
      received += bytes.length;
      if (!progress.sending) progress = { ...progress, sending: true };
    } else {
      if (event.bytes !== received) throw new ApiError(response.status, { code: 'internal', message: CUT_OFF });
      return true;
    }
    onProgress(progress);
    return false;
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (value) pending += value;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (line !== '' && handle(line)) {
        const file = start as Extract<ReportCardBuildEvent, { type: 'start' }> | null;
        if (!file) throw new ApiError(response.status, { code: 'internal', message: CUT_OFF });
        saveFile(parts, file.file_name, file.content_type);
        return file.file_name;
      }
    }
    if (done) throw new ApiError(response.status, { code: 'internal', message: CUT_OFF });
  }
}
