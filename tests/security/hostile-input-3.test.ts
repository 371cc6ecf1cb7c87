import { defineHostileSweep } from '../support/security/hostile-sweep.js';

/** Part 3 of the hostile-input sweep (tests/support/security/hostile-sweep.ts says what it checks). */
await defineHostileSweep(2, 3);
