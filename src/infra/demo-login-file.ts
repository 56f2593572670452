import fs from 'node:fs';
import path from 'node:path';

/** Where the demo login (services/demo-login.ts) is kept between starts. */
export interface DemoLoginVault {
  read(): { email: string; password: string | null; apiKey: string } | null;
  write(login: { email: string; password: string | null; apiKey: string }): void;
}

/** The demo login kept in `<DATA_DIR>/demo-login.json`, mode 0600. */
export function demoLoginFile(dataDir: string): DemoLoginVault & { path: string } {
  const file = path.join(dataDir, 'demo-login.json');
  return {
    path: file,
    read() {
      try {
        const v = JSON.parse(fs.readFileSync(file, 'utf8')) as { email?: unknown; password?: unknown; apiKey?: unknown };
        if (typeof v.email !== 'string' || typeof v.apiKey !== 'string') return null;
        return { email: v.email, password: typeof v.password === 'string' ? v.password : null, apiKey: v.apiKey };
      } catch {
        return null;
      }
    },
    write(login) {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(file, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
      fs.chmodSync(file, 0o600);
    },
  };
}
