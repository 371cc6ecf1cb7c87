import { sql, type Compilable, type CompiledQuery, type RawBuilder } from 'kysely';
import type { Db } from './database.js';

/** A named stand-in for a value in a query compiled once (see `compiledOnce`). */
class Slot {
  constructor(readonly name: string) {}
}

/** What a compiled query's build function gets instead of values: `slot('name')` stands for `values.name`. */
export type SlotOf<Values> = <Name extends keyof Values & string>(name: Name) => RawBuilder<Values[Name]>;

/**
 * A query Kysely builds and compiles once per database engine, then runs with new values through
 * Kysely's own executor (`db.executeQuery`, so connections, transactions and the driver are
 * Kysely's as for any query). For the session lookup, which every signed-in request runs: building
 * and compiling it costs several times what SQLite takes to answer it (docs/performance.md, record).
 *
 * The build function never sees the values, only named stand-ins (`slot('idHash')`), so by
 * construction it cannot choose the query's shape by a value: one SQL text, whatever the values.
 * Each stand-in becomes a bound parameter; a value missing at run time is an error, never a null.
 */
export function compiledOnce<Values extends Record<string, unknown>, Row>(
  build: (db: Db, slot: SlotOf<Values>) => Compilable<Row>,
): (db: Db, values: Values) => Promise<Row[]> {
  const compiledByEngine = new WeakMap<object, CompiledQuery<Row>>();
  const slot: SlotOf<Values> = (name) => sql.val(new Slot(name)) as RawBuilder<Values[typeof name]>;
  return async (db, values) => {
    const adapter = db.getExecutor().adapter;
    let compiled = compiledByEngine.get(adapter);
    if (!compiled) {
      compiled = build(db, slot).compile();
      compiledByEngine.set(adapter, compiled);
    }
    const parameters = compiled.parameters.map((parameter) => {
      if (!(parameter instanceof Slot)) return parameter;
      const value = values[parameter.name];
      if (value === undefined) throw new Error(`compiledOnce: no value for '${parameter.name}'`);
      return value;
    });
    const { rows } = await db.executeQuery<Row>({ ...compiled, parameters });
    return rows;
  };
}
