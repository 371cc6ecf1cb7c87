/**
 * A tiny seeded PRNG (mulberry32) and the draws the demo seeder needs. Math.random cannot be
 * seeded, and the demo school must come out the same for the same seed (tests, screenshots).
 * Not for secrets: anything unguessable uses node:crypto instead.
 */

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Picks by weight; entries with weight 0 are never chosen. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T;
  /** Normally distributed (Box–Muller), for marks and abilities. */
  normal(mean: number, sd: number): number;
  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[];
  /** `length` decimal digits, leading zeros allowed. */
  digits(length: number): string;
}

/** Returns the mulberry32 generator for a 32-bit seed. */
function createMulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Creates the draw helpers over a mulberry32 stream seeded with `seed`. */
export function createRandom(seed: number): Random {
  const next = createMulberry32(seed);
  const random: Random = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new Error('Cannot pick from an empty list.');
      return items[Math.floor(next() * items.length)]!;
    },
    weighted: (entries) => {
      const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
      if (total <= 0) throw new Error('Cannot pick by weight when every weight is 0.');
      let roll = next() * total;
      for (const [value, weight] of entries) {
        roll -= weight;
        if (roll < 0 && weight > 0) return value;
      }
      // Floating-point leftovers land on the last entry that can be chosen.
      return [...entries].reverse().find(([, weight]) => weight > 0)![0];
    },
    normal: (mean, sd) => {
      const u = 1 - next(); // (0, 1]: log(0) would be -Infinity
      const v = next();
      return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    shuffle: (items) => {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [copy[i], copy[j]] = [copy[j]!, copy[i]!];
      }
      return copy;
    },
    digits: (length) => {
      let out = '';
      for (let i = 0; i < length; i++) out += String(Math.floor(next() * 10));
      return out;
    },
  };
  return random;
}
