/**
 * Asking for credentials: on a terminal, a question for the email and a hidden password (no
 * echo); otherwise (CI, a pipe) lines read from stdin — email then password, or only the
 * password when the email came as a flag — and, when the account has two-factor sign-in, the
 * code on the next line (or AABIFY_PASSWORD / AABIFY_2FA_CODE where stdin carries something else).
 */
import { createInterface, type Interface } from 'node:readline';
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

/**
 * One reader of a non-terminal stdin for the whole command, so a line asked later (the
 * two-factor code after the password was tried) is the next one piped, never lost in a buffer.
 */
let stdinReader: { rl: Interface; lines: string[]; waiting: Array<(line: string | undefined) => void>; ended: boolean } | undefined;

function stdinLine(): Promise<string | undefined> {
  if (!stdinReader) {
    const reader = { rl: createInterface({ input: process.stdin, terminal: false }), lines: [] as string[], waiting: [] as Array<(line: string | undefined) => void>, ended: false };
    reader.rl.on('line', (line) => {
      const clean = line.replace(/\r$/, '');
      const next = reader.waiting.shift();
      if (next) next(clean);
      else reader.lines.push(clean);
    });
    reader.rl.on('close', () => {
      reader.ended = true;
      for (const next of reader.waiting.splice(0)) next(undefined);
    });
    stdinReader = reader;
  }
  const reader = stdinReader;
  if (reader.lines.length > 0) return Promise.resolve(reader.lines.shift());
  if (reader.ended) return Promise.resolve(undefined);
  return new Promise((resolve) => reader.waiting.push(resolve));
}

/** The next `count` lines of a non-terminal stdin (fewer when it ends first). */
export async function readStdinLines(count: number): Promise<string[]> {
  const lines: string[] = [];
  while (lines.length < count) {
    const line = await stdinLine();
    if (line === undefined) break;
    lines.push(line);
  }
  return lines;
}

/** Lets the process end though stdin stays open (a command is done reading it). */
export function releaseStdin(): void {
  stdinReader?.rl.close();
  stdinReader = undefined;
}

export interface Credentials {
  email: string;
  password: string;
}

export async function askCredentials(emailFlag: string | undefined): Promise<Credentials> {
  if (process.stdin.isTTY) {
    const email = emailFlag ?? (await askLine('E-mail: ')).trim();
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

/**
 * The account's password for a command that needs a session (replacing keys): asked on a
 * terminal; else AABIFY_PASSWORD; else one stdin line (unless stdin carries the command's data).
 */
export async function askPassword(email: string, stdinFree = true): Promise<string> {
  if (process.stdin.isTTY) return askHidden(`Senha de ${email}: `);
  const fromEnv = process.env.AABIFY_PASSWORD;
  if (fromEnv) return fromEnv;
  const [line] = stdinFree ? await readStdinLines(1) : [];
  if (!line) {
    throw usageError(
      stdinFree
        ? `Sem terminal: envie a senha de ${email} na entrada padrão (uma linha) ou em AABIFY_PASSWORD.`
        : `Sem terminal e com a entrada padrão ocupada: informe a senha de ${email} em AABIFY_PASSWORD.`,
      'MISSING_CREDENTIALS',
    );
  }
  return line;
}

/** The code of the authenticator app (or a recovery code) when the account asks for it. */
export async function askTwoFactorCode(stdinFree = true): Promise<string> {
  if (process.stdin.isTTY) return (await askLine('Código de verificação (aplicativo autenticador ou código de recuperação): ')).trim();
  const fromEnv = process.env.AABIFY_2FA_CODE;
  if (fromEnv) return fromEnv.trim();
  const [line] = stdinFree ? await readStdinLines(1) : [];
  if (!line?.trim()) {
    throw usageError('A conta pede o código de verificação em duas etapas: envie-o na linha seguinte à senha (ou em AABIFY_2FA_CODE).', 'MISSING_TWO_FACTOR_CODE');
  }
  return line.trim();
}
