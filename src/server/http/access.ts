import type { FastifyContextConfig, FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, forbidden, unauthenticated } from './errors.js';

/**
 * Who may call a route (SPEC §6, DESIGN §5). Every route declares one in `config.access`;
 * `listUndeclaredRoutes` and the access test fail the suite for a route that does not.
 * - `public`: anyone (CSRF cookie, health, static files, docs)
 * - `visitor`: sign-in calls; reachable without a session
 * - `signed-in`: any signed-in user
 * - `admin`: administrators only
 * - `{ self: param }`: the student named by that path parameter, or an administrator
 * - `device`: a gate scanner with its own key; the route checks the key itself
 */
export type Access = 'public' | 'visitor' | 'signed-in' | 'admin' | 'device' | { self: string };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** false only for routes authenticated by something other than the session cookie. */
    csrf?: boolean;
    /** Reachable while the account must change its password first (forced change). */
    allowDuringPasswordChange?: boolean;
  }
}

/** Routes registered without an access declaration (the walk of Fastify's route table). */
export function listUndeclaredRoutes(routes: readonly RouteOptions[]): string[] {
  return routes
    .filter((route) => !route.config?.access)
    .map((route) => `${String(route.method)} ${route.url}`);
}

/** Throws unless the signed-in user is the student named or an administrator. */
export function requireSelfOrAdmin(request: FastifyRequest, studentId: string): void {
  const user = request.user;
  if (!user) throw unauthenticated();
  if (user.role === 'admin') return;
  if (user.studentId !== studentId) throw forbidden('You can only see your own records.');
}

/** Throws unless someone is signed in; answers the user. */
export function requireUser(request: FastifyRequest) {
  if (!request.user) throw unauthenticated();
  return request.user;
}

function enforce(request: FastifyRequest, access: Access, config: FastifyContextConfig): void {
  if (access === 'public' || access === 'visitor' || access === 'device') return;
  const user = request.user;
  if (!user) throw unauthenticated();
  if ((user.passwordReset || user.firstLogin) && user.role === 'student' && !config.allowDuringPasswordChange) {
    throw new AppError(403, 'password_change_required', 'Please choose a new password first.');
  }
  if (access === 'signed-in') return;
  if (access === 'admin') {
    if (user.role !== 'admin') throw forbidden('Only administrators may do that.');
    return;
  }
  const params = request.params as Record<string, string | undefined>;
  requireSelfOrAdmin(request, params[access.self] ?? '');
}

/** Collects the route table and enforces each route's declared access before anything else. */
export const accessPlugin = fp(
  async (app: FastifyInstance) => {
    const routes: RouteOptions[] = [];
    app.decorate('routeTable', routes);
    app.addHook('onRoute', (route) => {
      routes.push(route);
    });
    app.addHook('onRequest', async (request) => {
      // Fastify builds routeOptions anew on every read: read it once.
      const config = request.routeOptions.config;
      const access = config?.access;
      // A route without a declaration is refused rather than left open (and fails the test).
      if (!access) {
        if (request.is404) return;
        throw forbidden('This route declares no access rule.');
      }
      enforce(request, access, config);
    });
  },
  { name: 'access', dependencies: ['sessions'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteOptions[];
  }
}
