import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Child processes of the benchmarks (the simulated fleet, load generators): TypeScript
// run through tsx from the repository root, stdout piped for their first line.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function tsxFork(file: string, args: string[]): ChildProcess {
  return fork(file, args, { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'pipe', 'inherit', 'ipc'], cwd: root });
}

/** The rest of the child's first stdout line starting with `prefix` (e.g. the simulator's `listening <url>`). */
export function firstLine(child: ChildProcess, prefix: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d) => {
      buf += String(d);
      const line = buf.split('\n').find((l) => l.startsWith(prefix));
      if (line) resolve(line.slice(prefix.length).trim());
    });
    child.once('exit', (code) => reject(new Error(`${prefix} process exited (${code})`)));
  });
}
