/**
 * Seeded pseudo-random numbers (mulberry32). Every generated id, name and number in the
 * emulator comes from one of these so the data is identical for the same seed.
 */
export type Rng = {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  uuid(): string;
  hex(length: number): string;
  /** The internal state, so a stream can be saved and resumed (simulation). */
  state(): number;
};

export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const hex = (length: number) => {
    let out = "";
    while (out.length < length) out += int(0, 15).toString(16);
    return out;
  };
  return {
    next,
    int,
    pick: <T>(items: readonly T[]) => items[int(0, items.length - 1)] as T,
    chance: (p) => next() < p,
    hex,
    // RFC 4122 version-4 layout, so strict UUID validators accept the ids.
    uuid: () => `${hex(8)}-${hex(4)}-4${hex(3)}-${"89ab"[int(0, 3)]}${hex(3)}-${hex(12)}`,
    state: () => a,
  };
}

/** Derives an independent stream from a seed and a label (e.g. "acme", "sim:acme"). */
export function deriveSeed(seed: number, label: string): number {
  let h = 2166136261 ^ seed;
  for (const ch of label) h = Math.imul(h ^ (ch.codePointAt(0) ?? 0), 16777619);
  return h >>> 0;
}
