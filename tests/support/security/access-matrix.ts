import type { CallerKind, RouteRow } from './harness.js';
import type { RouteSample } from './route-samples.js';

/** What one cell of the access matrix expects: a status, and for refusals the error code. */
export interface Expectation {
  status: number;
  code?: 'unauthenticated' | 'forbidden';
}

function okFor(sample: RouteSample, caller: CallerKind): number {
  if (typeof sample.ok === 'number') return sample.ok;
  const group = caller === 'visitor' ? 'visitor' : caller === 'admin' ? 'admin' : 'student';
  const status = sample.ok[group];
  if (status === undefined) throw new Error(`the sample gives no ok status for ${group}`);
  return status;
}

const UNAUTHENTICATED: Expectation = { status: 401, code: 'unauthenticated' };
const FORBIDDEN: Expectation = { status: 403, code: 'forbidden' };

/**
 * The expected answer of a caller on a route, from the route's declared access alone (DESIGN §5,
 * docs/decisions.md D3): visitors reach public and visitor routes; students reach signed-in
 * routes and their own records, never another student's (403) or the administrators' (403);
 * administrators reach everything a session can; a gate scanner route needs its device key (401).
 */
export function expectedFor(row: RouteRow, sample: RouteSample, caller: CallerKind): Expectation {
  const access = row.access;
  if (access === undefined) throw new Error(`${row.key} declares no access`);
  if (access === 'public' || access === 'visitor') return { status: okFor(sample, caller) };
  if (access === 'device') return UNAUTHENTICATED;
  if (caller === 'visitor') return UNAUTHENTICATED;
  if (access === 'admin') return caller === 'admin' ? { status: okFor(sample, caller) } : FORBIDDEN;
  if (access === 'signed-in') {
    if (caller !== 'other') return { status: okFor(sample, caller) };
    if (!sample.names) throw new Error(`${row.key} is signed-in: its sample must say where it names the student (names)`);
    return sample.names === 'none' ? { status: okFor(sample, caller) } : FORBIDDEN;
  }
  // { self: param }
  return caller === 'other' ? FORBIDDEN : { status: okFor(sample, caller) };
}
