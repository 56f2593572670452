import fs from 'node:fs';
import path from 'node:path';

// Top self-time functions of a V8 CPU profile (`node --cpu-prof`), as a markdown table:
// what docs/benchmarks.md quotes as the flame summary of the cached-read hot path.
//
//   npx tsx bench/lib/cpu-profile-summary.ts <file.cpuprofile | dir> [--top 20] [--last SECONDS]

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** `lastSeconds`: only the end of the profile (the load, not the start-up). */
export function summarize(profile: Profile, top: number, lastSeconds = Infinity): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  let from = profile.samples.length;
  for (let t = 0; from > 0 && t < lastSeconds * 1e6; ) t += profile.timeDeltas[--from] ?? 0;
  for (let i = from; i < profile.samples.length; i++) {
    const n = byId.get(profile.samples[i]);
    const dt = profile.timeDeltas[i] ?? 0;
    if (!n) continue;
    const f = n.callFrame;
    const file = f.url
      ? f.url
          .replace(/^file:\/\//, '')
          .replace(/^.*node_modules\//, '')
          .replace(/^.*\/src\//, 'src/')
      : '';
    const label = `${f.functionName || '(anonymous)'} ${file ? `${path.basename(path.dirname(file))}/${path.basename(file)}:${f.lineNumber + 1}` : ''}`.trim();
    self.set(label, (self.get(label) ?? 0) + dt);
    total += dt;
  }
  const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  const out = ['| self % | self ms | function |', '|---:|---:|---|'];
  for (const [label, us] of rows) out.push(`| ${((100 * us) / total).toFixed(1)} | ${(us / 1000).toFixed(0)} | \`${label}\` |`);
  return out.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('cpu-profile-summary.ts')) {
  const target = process.argv[2];
  const i = process.argv.indexOf('--top');
  const top = i > 0 ? Number(process.argv[i + 1]) : 20;
  const l = process.argv.indexOf('--last');
  const last = l > 0 ? Number(process.argv[l + 1]) : Infinity;
  const file = fs.statSync(target).isDirectory()
    ? path.join(
        target,
        fs
          .readdirSync(target)
          .filter((f) => f.endsWith('.cpuprofile'))
          .sort()
          .at(-1)!,
      )
    : target;
  console.log(summarize(JSON.parse(fs.readFileSync(file, 'utf8')) as Profile, top, last));
}
