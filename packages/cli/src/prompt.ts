/**
 * Asking for credentials: on a terminal, a question for the email and a hidden password (no
 * echo); otherwise (CI, a pipe) lines read from stdin — email then password, or only the
 * password when the email came as a flag.
 */
import { createInterface } from 'node:readline';
import { CliError, EXIT_USAGE, usageError } from './api/errors.js';

export async function askLine(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    return await new Promise<string>((resolve) => rl.question(question, resolve));
  } finally {
    rl.close();
  }
}

/** A password typed without echo (terminal only). */
export function askHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(question);
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (): void => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
    };
    const onData = (chunk: string): void => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') {
          finish();
          resolve(value);
          return;
        }
        if (ch === '\u0003') {
          finish();
          reject(new CliError('CANCELLED', 'Login cancelado.', EXIT_USAGE));
          return;
        }
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else if (ch >= ' ') value += ch;
      }
    };
    stdin.setRawMode(true);
    stdin.setEncoding('utf8');
    stdin.resume();
    stdin.on('data', onData);
  });
}

/** The first `count` lines of a non-terminal stdin (fewer when it ends first). */
export async function readStdinLines(count: number): Promise<string[]> {
  const rl = createInterface({ input: process.stdin, terminal: false });
  const lines: string[] = [];
  for await (const line of rl) {
    lines.push(line.replace(/\r$/, ''));
    if (lines.length >= count) break;
  }
  rl.close();
  return lines;
}

export interface Credentials {
  email: string;
  password: string;
}

export async function askCredentials(emailFlag: string | undefined): Promise<Credentials> {
  if (process.stdin.isTTY) {
    const email = emailFlag ?? (await askLine('Email: ')).trim();
    const password = await askHidden('Senha: ');
    if (!email || !password) throw usageError('Informe o email e a senha.', 'MISSING_CREDENTIALS');
    return { email, password };
  }
  const lines = await readStdinLines(emailFlag ? 1 : 2);
  const [email, password] = emailFlag ? [emailFlag, lines[0]] : [lines[0]?.trim(), lines[1]];
  if (!email || !password) {
    throw usageError(
      emailFlag
        ? 'Sem terminal: envie a senha na entrada padrão (uma linha), ou use --token.'
        : 'Sem terminal: envie o email e a senha na entrada padrão (uma linha cada), ou use --email/--token.',
      'MISSING_CREDENTIALS',
    );
  }
  return { email, password };
}
