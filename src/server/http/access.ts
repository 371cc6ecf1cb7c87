import type { FastifyContextConfig, FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/database.js';
import type { SchoolAction, StudentAction } from '../../shared/staff.js';
import { callerOf, mayEver, mustChangePasswordFirst, requireCan, requireGuardianCaller, type Caller } from '../access/roles.js';
import { authorizeStudent } from '../access/scopes.js';
import { accountDisabled, AppError, unauthenticated } from './errors.js';

/**
 * Who may call a route (docs/requirements.md R15, docs/decisions.md D3, D49). Every route declares one in
 * `config.access`; `listUndeclaredRoutes` and the access matrix fail the suite for a route that
 * does not. What a role may do is decided by the access module (src/server/access), never here.
 * - `public`: anyone (CSRF cookie, health, static files, docs)
 * - `visitor`: sign-in calls; reachable without a session
 * - `signed-in`: any signed-in person, acting on their own account only
 * - `family`: a signed-in family account (a parent or guardian), acting on its own account and
 *   linked children
 * - `device`: a gate scanner with its own key; the route checks the key itself
 * - `{ can: school action }`: staff whose role allows it; with `class`, only on a class they may see
 * - `{ can: student action, student }`: the student named (by a path parameter, a query
 *   parameter, the validated body, or `handler` when the route finds the student itself and
 *   calls `authorizeStudent`) and staff whose role reaches that student
 */
export type StudentRef = { param: string } | { query: string } | { body: string } | 'handler';
export type ClassRef = { param: string } | { query: string };
export type Access =
  | 'public'
  | 'visitor'
  | 'signed-in'
  | 'family'
  | 'device'
  | { can: SchoolAction; class?: ClassRef }
  | { can: StudentAction; student: StudentRef };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** false only for routes authenticated by something other than the session cookie. */
    csrf?: boolean;
    /** Reachable while the account must change its password first (forced change). */
    allowDuringPasswordChange?: boolean;
    /** Reachable by a session that must set up the second factor before anything else. */
    allowDuringSecondFactorSetup?: boolean;
  }
}

/** Routes registered without an access declaration (the walk of Fastify's route table). */
export function listUndeclaredRoutes(routes: readonly RouteOptions[]): string[] {
  return routes
    .filter((route) => !route.config?.access)
    .map((route) => `${String(route.method)} ${route.url}`);
}

/** The path parameter naming the student a route serves, or null (the read logger's key). */
export function studentParamOf(access: Access | undefined): string | null {
  if (typeof access !== 'object' || !('student' in access)) return null;
  const ref = access.student;
  return typeof ref === 'object' && 'param' in ref ? ref.param : null;
}

/** The refusal of a call without a session: says why when the session just ended because its staff account was disabled (D84). */
function signedOut(request: FastifyRequest) {
  return request.sessionEnded === 'account_disabled' ? accountDisabled() : unauthenticated();
}

/** Throws unless someone is signed in; answers the session's account. */
export function requireUser(request: FastifyRequest) {
  if (!request.user) throw signedOut(request);
  return request.user;
}

/** The signed-in caller, or 401. */
export function requireCaller(request: FastifyRequest): Caller {
  if (!request.user) throw unauthenticated();
  return callerOf(request.user);
}

/** The signed-in family account (its own calls, declared `family`), or 401/403. */
export function requireGuardian(request: FastifyRequest): { userId: number; email: string | null } {
  const user = request.user;
  if (!user) throw unauthenticated();
  requireGuardianCaller(callerOf(user));
  return { userId: user.id, email: user.email };
}

/** Where a route's targets are named: the path's parameters and the query string. */
export interface AccessTargets {
  params: unknown;
  query: unknown;
}

/** The named value of a path or query parameter. */
function read(targets: AccessTargets, ref: { param: string } | { query: string }): string {
  const source = ('param' in ref ? targets.params : targets.query) as Record<string, unknown> | undefined;
  const value = source?.['param' in ref ? ref.param : ref.query];
  return typeof value === 'string' ? value : '';
}

/**
 * Checks made as a call arrives: signed in, not held by a forced password change or a second
 * factor to set up, the role's actions, path and query targets. The API's hook calls it for every
 * route; a server-rendered page's reads call it with the path they read (http/reads.ts).
 */
export async function enforceAccess(
  db: Db,
  request: FastifyRequest,
  access: Access,
  targets: AccessTargets,
  config: FastifyContextConfig = {},
): Promise<void> {
  if (access === 'public' || access === 'visitor' || access === 'device') return;
  const user = request.user;
  if (!user) throw signedOut(request);
  // A student after a first login or a reset, a staff member with a new or reset account: the
  // password comes first (docs/requirements.md R3, D4; staff D50). Sign-out and the password change let them through.
  const mustChangePassword = mustChangePasswordFirst(user);
  if (mustChangePassword && !config.allowDuringPasswordChange) {
    throw new AppError(403, 'password_change_required', 'Please choose a new password first.');
  }
  // The password comes before the second factor: a new account owing both changes its password first.
  const changingPassword = mustChangePassword && config.allowDuringPasswordChange === true;
  if (user.secondFactorSetup && !config.allowDuringSecondFactorSetup && !changingPassword) {
    throw new AppError(403, 'second_factor_setup_required', 'Set up your authenticator app first: this portal asks staff for a code at sign-in.');
  }
  if (access === 'signed-in') return;
  const who = callerOf(user);
  if (access === 'family') {
    requireGuardianCaller(who);
    return;
  }
  if (!mayEver(who, access.can)) requireCan(who, access.can);
  if ('student' in access) {
    const ref = access.student;
    if (ref !== 'handler' && !('body' in ref)) await authorizeStudent(db, who, access.can, read(targets, ref));
  } else if (access.class) {
    requireCan(who, access.can, { classId: read(targets, access.class) });
  }
}

/** The body field naming the student, for routes that name the student in their body. */
function bodyRef(access: Access | undefined): { action: StudentAction; field: string } | null {
  if (typeof access !== 'object' || !('student' in access)) return null;
  const ref = access.student;
  return ref !== 'handler' && 'body' in ref ? { action: access.can, field: ref.body } : null;
}

/** Collects the route table and enforces each route's declared access before anything else. */
export const accessPlugin = fp(
  async (app: FastifyInstance, options: { db: Db }) => {
    const routes: RouteOptions[] = [];
    app.decorate('routeTable', routes);
    app.addHook('onRoute', (route) => {
      routes.push(route);
      // The student a body names is checked once the body is validated, on these routes only.
      const named = bodyRef(route.config?.access);
      if (!named) return;
      const own: preHandlerAsyncHookHandler = async (request) => {
        const value = (request.body as Record<string, unknown> | null)?.[named.field];
        await authorizeStudent(options.db, callerOf(requireUser(request)), named.action, typeof value === 'string' ? value : '');
      };
      route.preHandler = [...(route.preHandler ? [route.preHandler].flat() : []), own];
    });
    app.addHook('onRequest', async (request) => {
      // Fastify builds routeOptions anew on every read: read it once.
      const config = request.routeOptions.config;
      const access = config?.access;
      // A route without a declaration is refused rather than left open (and fails the test).
      if (!access) {
        if (request.is404) return;
        throw new AppError(403, 'forbidden', 'This route declares no access rule.');
      }
      await enforceAccess(options.db, request, access, request, config);
    });
  },
  { name: 'access', dependencies: ['sessions'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteOptions[];
  }
}
