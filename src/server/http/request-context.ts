import type { FastifyRequest } from 'fastify';

/** Who did it and from where: the part of an audit row that comes from the request. */
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
  const label = !user
    ? 'visitor'
    : user.role === 'staff'
      ? `admin:${user.username ?? user.id}`
      : user.role === 'guardian'
        ? `guardian:${user.email ?? user.id}`
        : `student:${user.studentId}`;
  return { actor_user_id: user?.id ?? null, actor_label: label, ip: request.ip, request_id: String(request.id) };
}
