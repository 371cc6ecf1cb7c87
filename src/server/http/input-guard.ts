import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from './errors.js';

/**
 * No text the portal stores may hold a NUL character: PostgreSQL refuses it in text columns
 * (a 500 on that engine only), C-based tools cut strings at it, and no form field needs it.
 * Checked once, for every route, on the parsed body, query and path parameters.
 */

const MAX_DEPTH = 64;

/** The path of the first string (key or value) holding a NUL, or null. */
function findNul(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path || 'value' : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH || Buffer.isBuffer(value)) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], `${path}[${i}]`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const here = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return here.replace(/\u0000/g, '');
    const found = findNul(item, here, depth + 1);
    if (found) return found;
  }
  return null;
}

export const inputGuardPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', async (request) => {
      const field = findNul(request.params, 'params') ?? findNul(request.query, 'query') ?? findNul(request.body);
      if (field) throw badRequest('Text may not contain a NUL character.', { [field]: ['Text may not contain a NUL character.'] });
    });
  },
  { name: 'input-guard' },
);
