import fs from 'node:fs';
import path from 'node:path';

// A demo server points every source of its store at its own simulated fleet. Another
// process on the same store (the operator CLI with --demo) must not re-point them at a
// fleet of its own that dies with it, so the demo server leaves a marker in DATA_DIR while it
// runs (docs/operations.md, "Demo").

const FILE = 'demo-running.json';

export interface RunningDemo {
  pid: number;
  /** The simulated fleet the store's sources point at. */
  simulator: string;
  startedAt: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Marks this process as the demo serving the store of `dataDir`; the returned function removes the mark. */
export function markRunningDemo(dataDir: string, simulator: string, now: Date): () => void {
  const file = path.join(dataDir, FILE);
  const mark: RunningDemo = { pid: process.pid, simulator, startedAt: now.toISOString() };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(mark)}\n`);
  return () => {
    try {
      if (runningDemoIn(dataDir)?.pid === process.pid) fs.rmSync(file, { force: true });
    } catch {
      /* already gone */
    }
  };
}

/** The demo serving the store of `dataDir`, if its process is alive (a mark left by a killed one is ignored). */
export function runningDemoIn(dataDir: string): RunningDemo | null {
  try {
    const v = JSON.parse(fs.readFileSync(path.join(dataDir, FILE), 'utf8')) as Partial<RunningDemo>;
    if (typeof v.pid !== 'number' || !Number.isInteger(v.pid) || v.pid <= 0 || typeof v.simulator !== 'string') return null;
    return alive(v.pid) ? { pid: v.pid, simulator: v.simulator, startedAt: String(v.startedAt ?? '') } : null;
  } catch {
    return null;
  }
}
