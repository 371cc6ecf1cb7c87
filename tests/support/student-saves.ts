import { vi } from 'vitest';
import { jsonResponse } from './render-web.js';

/** The progress flags a fake save answers with: nothing done. */
export const NO_PROGRESS = { studentData: 0, familyData: 0, healthData: 0, otherData: 0, documents: 0, submit: 0, termsAndConditions: 0 };

/** The server's answer to a save it took: the values saved, as POST /api/student answers. */
export function savedAnswer(body: Record<string, unknown>): Response {
  const { id, ...saved } = body;
  return jsonResponse(200, { id, saved, progress: NO_PROGRESS, updated_at: '2026-01-01T00:00:00.000Z' });
}

/**
 * Stands in for the server in a component test whose only call is a registration field's save
 * (POST /api/student): every body sent is pushed onto the returned list, and `answer` decides the
 * reply (a rejected promise is a connection that dropped). Anything else the component calls fails
 * the test. A CSRF cookie is set first, so the save is the only call. Undo with vi.unstubAllGlobals().
 */
export function stubStudentSaves(answer: (body: Record<string, unknown>) => Response | Promise<Response>): Record<string, unknown>[] {
  const posts: Record<string, unknown>[] = [];
  document.cookie = 'XSRF-TOKEN=token';
  vi.stubGlobal(
    'fetch',
    vi.fn((path: string, init: RequestInit = {}) => {
      if (path !== '/api/student' || init.method !== 'POST') throw new Error(`unexpected call ${init.method ?? 'GET'} ${path}`);
      const body = JSON.parse(init.body as string) as Record<string, unknown>;
      posts.push(body);
      return Promise.resolve(answer(body));
    }),
  );
  return posts;
}
