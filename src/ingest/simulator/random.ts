// A small seeded PRNG (mulberry32): the simulated fleet is reproducible from its
// seed, so tests can assert on what it does.
export type Random = () => number;

export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(r: Random, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
export const between = (r: Random, min: number, max: number) => min + Math.floor(r() * (max - min + 1));

/** Fisher-Yates on a copy. */
export function shuffle<T>(r: Random, list: readonly T[]): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
