import { describeAccessMatrixPart } from '../support/security/access-matrix.js';

/**
 * The access matrix, one of three parts that vitest runs side by side: each route of this part's
 * features × each kind of caller, the app's answer against tests/security/access-table.ts (all
 * cells on SQLite, the covering subset on PostgreSQL; see cellsToRun).
 */
await describeAccessMatrixPart('school');
