import type { FastifySerializerCompiler } from 'fastify';
import fastJson from 'fast-json-stringify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

/**
 * `anyOf` of constants of one type (zod's `z.union([z.literal(0), z.literal(1)])`) as that type
 * with an `enum`: fast-json-stringify picks an `anyOf` branch by validating the value (slow), while
 * it writes a typed value directly. Everything else is kept as zod wrote it.
 */
function simplifyConstantUnions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(simplifyConstantUnions);
  if (typeof schema !== 'object' || schema === null) return schema;
  const node = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, simplifyConstantUnions(value)])) as JsonSchema;
  const branches = node.anyOf as JsonSchema[] | undefined;
  const type = branches?.[0]?.type;
  if (branches && typeof type === 'string' && branches.every((branch) => branch.type === type && 'const' in branch && Object.keys(branch).length === 2)) {
    const { anyOf: _anyOf, ...rest } = node;
    return { ...rest, type, enum: branches.map((branch) => branch.const) };
  }
  return node;
}

/** The JSON Schema fast-json-stringify compiles from a zod schema (its output side). */
export function jsonSchemaOf(schema: z.core.$ZodType): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'any' });
  return simplifyConstantUnions(json) as JsonSchema;
}

/**
 * For a route with a large answer: its 2xx answers are written by fast-json-stringify, compiled
 * once from the same zod schema the route declares (and the OpenAPI page shows). Like the zod
 * serializer it writes only the schema's properties, in the schema's order, and fails on a
 * missing required one; unlike it, it does not re-validate every value of an answer the service
 * has just built from the catalogue — for the 100-field record that parse cost as much as the
 * database read (docs/performance.md). Error answers keep the app's zod serializer.
 */
export function compiledSerializerCompiler<Schema>(route: Parameters<FastifySerializerCompiler<Schema>>[0]): (data: unknown) => string {
  const { schema } = route;
  if (!(schema instanceof z.core.$ZodType)) throw new Error(`${route.method} ${route.url}: a compiled serializer needs a zod schema`);
  if (!String(route.httpStatus ?? '').startsWith('2')) return serializerCompiler({ ...route, schema });
  return fastJson(jsonSchemaOf(schema));
}
