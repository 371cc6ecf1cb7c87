import type { FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import { z } from 'zod';
import type { ApiErrorBody } from '../../shared/api-error.js';
import type { Db } from '../db/database.js';
import { enforceAccess, type Access } from './access.js';
import { AppError } from './errors.js';
import { errorResponses } from './openapi.js';
import type { ZodApp } from './zod-app.js';

/**
 * A JSON read that the first screen of a page may need (docs/decisions.md D99). One definition
 * serves both ways in: the API's GET route, and the page the server renders, whose route loaders
 * ask for the same paths the browser would (`apiRequest`). On the page, the read runs in the
 * page's own request, with its session: the access rule is checked by the same function as the
 * API's hook (`enforceAccess`), the handler is the same, and the answer goes through the same
 * response schema. No HTTP call is made.
 */
export interface ReadDefinition<P extends z.core.$ZodType = z.core.$ZodType, Q extends z.core.$ZodType = z.core.$ZodType, A extends z.core.$ZodType = z.core.$ZodType> {
  url: string;
  access: Access;
  tags: string[];
  summary?: string;
  params?: P;
  querystring?: Q;
  /** The answer's schema (200); the error answers are the API's usual ones. */
  answer: A;
  /** `Cache-Control` of the API's answer (the page itself is always no-store). */
  cacheControl?: string;
  handle(request: FastifyRequest, input: { params: z.infer<P>; query: z.infer<Q> }): Promise<z.infer<A>>;
}

/** Declares a read (types follow its schemas). */
export function defineRead<P extends z.core.$ZodType, Q extends z.core.$ZodType, A extends z.core.$ZodType>(definition: ReadDefinition<P, Q, A>): ReadDefinition<P, Q, A> {
  return definition;
}

/** Registers a read as the API's GET route. */
export function registerRead(app: ZodApp, read: ReadDefinition): void {
  app.get(
    read.url,
    {
      config: { access: read.access },
      schema: {
        tags: read.tags,
        ...(read.summary ? { summary: read.summary } : {}),
        ...(read.params ? { params: read.params } : {}),
        ...(read.querystring ? { querystring: read.querystring } : {}),
        response: { 200: read.answer, ...errorResponses },
      },
    },
    async (request, reply) => {
      if (read.cacheControl) void reply.header('cache-control', read.cacheControl);
      return read.handle(request, { params: request.params, query: request.query });
    },
  );
}

/** What a read answers a rendered page: the API's status and JSON body. */
export interface ReadAnswer {
  status: number;
  body: unknown;
}

/** Reads a path of the API for a page, in the page's request; null when no read serves the path. */
export type PageReader = (path: string) => Promise<ReadAnswer | null>;

/** Something a read does after answering the API, for a page too (the read logger). */
export type AfterRead = (request: FastifyRequest, read: { url: string; access: Access; params: Record<string, string>; path: string }) => Promise<void>;

function errorAnswer(error: unknown): ReadAnswer {
  if (error instanceof AppError) {
    const body: ApiErrorBody = { message: error.message, code: error.code, ...(error.errors ? { errors: error.errors } : {}) };
    return { status: error.statusCode, body };
  }
  throw error;
}

/** The paths of the given reads, answered for a page request (see ReadDefinition). */
export function createPageReads(db: Db, reads: readonly ReadDefinition[], afterRead: AfterRead) {
  const router = FindMyWay<FindMyWay.HTTPVersion.V1>({ ignoreTrailingSlash: false });
  for (const read of reads) router.on('GET', read.url, () => undefined, { read });

  return function readerFor(request: FastifyRequest): PageReader {
    return async (path) => {
      const found = router.find('GET', path.split('?')[0] ?? path);
      const read = (found?.store as { read?: ReadDefinition } | undefined)?.read;
      if (!found || !read) return null;
      const rawParams = found.params as Record<string, string>;
      const rawQuery = Object.fromEntries(new URLSearchParams(path.includes('?') ? path.slice(path.indexOf('?')) : ''));
      try {
        const params = read.params ? z.safeParse(read.params, rawParams) : { success: true as const, data: rawParams };
        const query = read.querystring ? z.safeParse(read.querystring, rawQuery) : { success: true as const, data: rawQuery };
        if (!params.success || !query.success) throw new AppError(400, 'bad_request', 'The address is not valid.');
        await enforceAccess(db, request, read.access, { params: rawParams, query: rawQuery });
        const answer = z.parse(read.answer, await read.handle(request, { params: params.data, query: query.data }));
        await afterRead(request, { url: read.url, access: read.access, params: rawParams, path });
        return { status: 200, body: answer };
      } catch (error) {
        return errorAnswer(error);
      }
    };
  };
}
