import type { KyselyPlugin } from 'kysely';

/**
 * Records each statement a Kysely instance runs as its kind and first table ("InsertQueryNode
 * outbox"), in order: `db.withPlugin(statementRecorder(list))`. Tests that must show two ways do
 * the same work (so neither can be told apart by its time) compare these lists instead of timing
 * the ways, which a busy machine blurs. Transaction boundaries are not statements here.
 */
export function statementRecorder(into: string[]): KyselyPlugin {
  return {
    transformQuery: ({ node }) => (into.push(`${node.kind} ${firstTable(node) ?? ''}`.trim()), node),
    transformResult: ({ result }) => Promise.resolve(result),
  };
}

/** The first table a query node names (a raw statement names none). */
function firstTable(node: unknown): string | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const record = node as { kind?: unknown; table?: { identifier?: { name?: unknown } } };
  if (record.kind === 'TableNode' && typeof record.table?.identifier?.name === 'string') return record.table.identifier.name;
  for (const value of Object.values(node)) {
    const found = firstTable(value);
    if (found) return found;
  }
  return undefined;
}
