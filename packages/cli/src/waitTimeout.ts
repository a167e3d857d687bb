/**
 * How long a command that follows a conversion (`convert --wait`, `logs --follow`) waits for it
 * to end: `--timeout`, else AABIFY_WAIT_TIMEOUT, else for ever. A server that reports
 * `processing` for ever, or a queue that never moves, would otherwise hold a pipeline until the
 * CI job's own limit, which fails it without saying why. Past it the command exits 124 (as
 * coreutils' `timeout`) and the conversion goes on on the server.
 */
import { CliError, usageError } from './api/errors.js';
import { EXIT_TIMEOUT } from './exitCodes.js';

export interface WaitTimeout {
  ms: number;
  /** As given (`30m`), for messages. */
  label: string;
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000 };
/** More than a day is no timeout a pipeline means (and setTimeout tops out at ~24.8 days). */
const MAX_MS = 24 * 3_600_000;

/** `90`, `90s`, `15m`, `1.5h`: seconds when no unit is given. */
export function parseWaitTimeout(text: string, source: string): WaitTimeout {
  const m = /^(\d+(?:\.\d+)?)\s*([smh]?)$/i.exec(text.trim());
  const ms = m ? Number(m[1]) * UNIT_MS[(m[2] || 's').toLowerCase()]! : NaN;
  if (!(ms >= 1000 && ms <= MAX_MS)) {
    throw usageError(`${source} inválido: "${text.slice(0, 40)}". Use um tempo entre 1s e 24h, como 90s, 30m ou 1h.`, 'INVALID_TIMEOUT');
  }
  return { ms, label: text.trim() };
}

/** The timeout of this run: the flag, else the environment variable, else none. */
export function waitTimeoutOf(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): WaitTimeout | undefined {
  if (flag !== undefined) return parseWaitTimeout(flag, '--timeout');
  const fromEnv = env.AABIFY_WAIT_TIMEOUT?.trim();
  return fromEnv ? parseWaitTimeout(fromEnv, 'AABIFY_WAIT_TIMEOUT') : undefined;
}

export function waitTimedOut(conversionId: string, timeout: WaitTimeout, status: string | undefined): CliError {
  return new CliError(
    'WAIT_TIMEOUT',
    `A conversão ${conversionId} não terminou em ${timeout.label}; ela continua no servidor: aabify status ${conversionId}`,
    EXIT_TIMEOUT,
    { doc: { conversionId, ...(status ? { status } : {}) } },
  );
}

/** The `--timeout` option's help line, shared by the commands that follow a conversion. */
export const TIMEOUT_OPTION_HELP = 'desiste de esperar após este tempo (90s, 30m, 1h; ou AABIFY_WAIT_TIMEOUT): sai com 124 e a conversão continua no servidor';
