import { spawn } from 'node:child_process';
import path from 'node:path';
import { runtimeEnv } from './child-env.ts';

// The operator CLI as an operator runs it: a child process with only the environment given,
// and a standard input that holds `input` (or nothing) and ends, as a pipe in a script does.

const root = path.resolve(import.meta.dirname, '../..');

export function cli(args: string[], env: Record<string, string>, input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['src/cli/index.ts', ...args], {
      cwd: root,
      env: { ...runtimeEnv(), ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input);
  });
}
