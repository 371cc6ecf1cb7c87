import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiErrorSchema } from '../../shared/api-error.js';
import {
  GradingSettingsSchema,
  ImportReportSchema,
  PostedTermReportListSchema,
  PostedTermReportSchema,
  ReportCardTermListSchema,
  type ImportReport,
  type PostTermReportsInput,
  type PostedTermReport,
  type ScheduleTermReportsInput,
} from '../../shared/term-reports.schemas.js';
import { BACKGROUND_QUERY } from '../auth/auth.api.js';
import { ApiError, apiRequest, fetchCsrfCookie, readCookie } from '../lib/api-client.js';

/** The term report calls (SPEC §7; issue #5): one fetcher and one hook per call. */

// ---- GET /api/report-card-terms/{userID} ---------------------------------------------------------

export const reportCardTermsKey = (studentId: string) => ['report-card-terms', studentId] as const;

export function getReportCardTerms(studentId: string, signal?: AbortSignal) {
  return apiRequest(`/api/report-card-terms/${encodeURIComponent(studentId)}`, {
    schema: ReportCardTermListSchema,
    ...(signal ? { signal } : {}),
  });
}

/** The student's term reports, posted or not (the list greys out what is not posted). */
export function useReportCardTerms(studentId: string | null) {
  return useQuery({
    queryKey: reportCardTermsKey(studentId ?? ''),
    queryFn: ({ signal }) => getReportCardTerms(studentId ?? '', signal),
    enabled: studentId !== null,
    staleTime: 30_000,
  });
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

/** Post or remove; the dialog shows its own progress (SPEC §2), so the page overlay stays down. */
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

export const TEMPLATE_URLS = {
  xlsx: '/api/term-results/template?format=xlsx',
  csv: '/api/term-results/template?format=csv',
} as const;

export function useGradingSettings() {
  return useQuery({
    queryKey: ['term-results-grading'],
    queryFn: ({ signal }) => apiRequest('/api/term-results/grading', { schema: GradingSettingsSchema, ...(signal ? { signal } : {}) }),
    staleTime: 60_000,
  });
}

async function toApiError(response: Response): Promise<ApiError> {
  const parsed = ApiErrorSchema.safeParse(await response.json().catch(() => undefined));
  if (parsed.success) return new ApiError(response.status, parsed.data);
  return new ApiError(response.status, { code: response.status >= 500 ? 'internal' : 'bad_request', message: response.statusText || `The upload failed (HTTP ${response.status}).` });
}

async function sendImport(file: File, input: { year: number; term: number; dryRun: boolean }): Promise<Response> {
  const form = new FormData();
  form.append('file', file, file.name);
  const query = new URLSearchParams({ year: String(input.year), term: String(input.term), dryRun: input.dryRun ? '1' : '0' });
  try {
    return await fetch(`/api/term-results/import?${query.toString()}`, {
      method: 'POST',
      body: form,
      credentials: 'include',
      headers: { Accept: 'application/json', 'X-XSRF-TOKEN': readCookie('XSRF-TOKEN') ?? '' },
    });
  } catch {
    throw new ApiError(0, { code: 'internal', message: 'Could not reach the school portal. Check your connection and try again.' });
  }
}

/** POST /api/term-results/import as multipart/form-data (apiRequest sends JSON only), with the CSRF header. */
export async function importTermResults(file: File, input: { year: number; term: number; dryRun: boolean }): Promise<ImportReport> {
  if (readCookie('XSRF-TOKEN') === null) await fetchCsrfCookie();
  let response = await sendImport(file, input);
  if (response.status === 403) {
    const error = await toApiError(response.clone());
    if (error.code === 'csrf_failed') {
      await fetchCsrfCookie();
      response = await sendImport(file, input);
    }
  }
  if (!response.ok) throw await toApiError(response);
  const parsed = ImportReportSchema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) throw new ApiError(response.status, { code: 'internal', message: 'The server sent an answer this page did not expect.' });
  return parsed.data;
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
