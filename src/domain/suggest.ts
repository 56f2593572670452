// "Did you mean …?" for a name a person typed: the nearest of the known names by edit
// distance (insertions, deletions, substitutions and swaps of neighbours, case ignored), if it
// is near enough to be a typo (docs/api.md, "Errors").

/** Optimal string alignment distance, case-insensitive. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => [i, ...new Array<number>(t.length).fill(0)]);
  for (let j = 0; j <= t.length; j++) d[0]![j] = j;
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[s.length]![t.length]!;
}

/** Inputs longer than this are not compared (a typo is short; the work stays bounded). */
const MAX_INPUT = 64;

/**
 * The known name nearest to `input`, or null when none is close: at most one edit for short
 * names, two from 5 characters, three from 9. A name that differs only in case wins at once.
 */
export function nearestName(input: string, known: Iterable<string>): string | null {
  if (!input || input.length > MAX_INPUT) return null;
  const limit = input.length >= 9 ? 3 : input.length >= 5 ? 2 : 1;
  let best: string | null = null;
  let bestDistance = limit + 1;
  for (const name of known) {
    if (name === input) return null;
    if (Math.abs(name.length - input.length) > limit) continue;
    const dist = editDistance(input, name);
    if (dist < bestDistance || (dist === bestDistance && best !== null && name < best)) {
      best = name;
      bestDistance = dist;
    }
  }
  return bestDistance <= limit ? best : null;
}
