import readline from 'node:readline';

// Where `users create` gets the password: `--password P` (visible in the shell's
// history and the process list), `--password-stdin` (scripts: the first line of
// standard input), or a prompt without echo when standard input is a terminal.

async function readStdin(input: NodeJS.ReadableStream): Promise<string> {
  let data = '';
  for await (const chunk of input) data += String(chunk);
  // The first line only, without its line ending (`echo`, `printf`, a file all work).
  return data.split(/\r?\n/, 1)[0] ?? '';
}

function promptHidden(question: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    // readline writes the prompt and every echo through this method: the prompt goes
    // out, then nothing typed is echoed.
    let muted = false;
    (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s) => {
      if (!muted) process.stderr.write(s);
    };
    rl.question(question, (answer) => {
      rl.close();
      process.stderr.write('\n');
      resolve(answer);
    });
    muted = true;
  });
}

export class PasswordSourceError extends Error {}

export async function readPassword(options: Record<string, string>): Promise<string> {
  if (options.password && options.password !== 'true') return options.password;
  if (options['password-stdin'] === 'true') return readStdin(process.stdin);
  if (process.stdin.isTTY) {
    const first = await promptHidden('Password: ');
    const again = await promptHidden('Repeat password: ');
    if (first !== again) throw new PasswordSourceError('the two passwords differ');
    return first;
  }
  throw new PasswordSourceError('--password P or --password-stdin is required when standard input is not a terminal');
}
