import type { FastifyRequest } from 'fastify';
import { callerOf, isGuardianCaller, isStaffCaller } from '../access/roles.js';
import type { SessionAccount } from './session.js';

/**
 * Who did it and from where: the part of an audit row that comes from the request, in the audit
 * log's words (its `actor_*` columns). Rules about who is asking use the `Caller` (access/roles.ts).
 */
export interface Actor {
  actor_user_id: number | null;
  actor_label: string;
  ip: string | null;
  request_id: string | null;
}

/**
 * The audit actor of a request: the signed-in user, or 'visitor'. Staff (role `staff`) keep the
 * label `admin:` that the stored audit rows and their readers know (D88).
 */
export function actorOf(request: FastifyRequest): Actor {
  const user = request.user;
  const label = user ? labelOf(user) : 'visitor';
  return { actor_user_id: user?.id ?? null, actor_label: label, ip: request.ip, request_id: String(request.id) };
}

/** How the audit log names a signed-in account: its kind, and the name it signs in with. */
function labelOf(user: SessionAccount): string {
  const caller = callerOf(user);
  if (isStaffCaller(caller)) return `admin:${user.username ?? user.id}`;
  if (isGuardianCaller(caller)) return `guardian:${user.email ?? user.id}`;
  return `student:${user.studentId}`;
}
