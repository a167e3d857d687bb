/**
 * Secrets never in the log, checked over a whole test run. In the server suite (test/setup.ts arms
 * it) every test server started by startTestServer logs at `debug` into `logCapture`
 * (test/helpers/server.ts); the helpers record
 * every secret the run mints — what the API answers under a secret's name (session and API
 * tokens, download tokens, stream tickets, 2FA material: SECRET_FIELDS), what socket requests
 * answer, session tokens signed by tokenFor, and the tokens of the links the SMTP server
 * receives (reset and confirmation codes) — and the root `after` hook (test/setup.ts) fails the
 * run when any of them appears in a captured line.
 *
 * Cheap by construction: each captured line is cut into words of URL-safe characters (base64url
 * and JWT alphabets) and only words long enough to be a secret are kept, each once, with the
 * first line it appeared in; the check at the end is one lookup per secret.
 */
import { Writable } from 'node:stream';

/** Names under which an answer holds a secret (a string, or a list of strings). */
export const SECRET_FIELDS = new Set(['token', 'downloadToken', 'ticket', 'secret', 'recoveryCodes', 'challengeToken']);

/** The shortest secret we mint is 32 random bytes in base64url (43 characters); shorter words are not kept. */
const MIN_SECRET_LENGTH = 20;
const WORD = /[A-Za-z0-9_.~-]{20,}/g;

/** Set by the server suite's root hooks (test/setup.ts); benchmarks and other suites log as before. */
let armed = false;
export function armSecretLog(): void {
  armed = true;
}
export const secretLogArmed = (): boolean => armed;

const minted = new Map<string, string>();
const seen = new Map<string, string>();
let capturedLines = 0;

/** A secret the run minted, and where it came from (said when it leaks). */
export function recordSecret(value: string, source: string): void {
  if (value.length >= MIN_SECRET_LENGTH && !minted.has(value)) minted.set(value, source);
  // `aab_…` tokens and `sse_…` tickets: their random part alone is the secret too.
  const body = /^[a-z]{2,4}_([A-Za-z0-9_-]{40,})$/.exec(value)?.[1];
  if (body) recordSecret(body, source);
}

/** Every secret an answer holds under one of SECRET_FIELDS, however deep. */
export function recordSecretsIn(body: unknown, source: string): void {
  if (Array.isArray(body)) {
    for (const item of body) recordSecretsIn(item, source);
    return;
  }
  if (typeof body !== 'object' || body === null) return;
  for (const [key, value] of Object.entries(body)) {
    if (SECRET_FIELDS.has(key)) {
      for (const v of Array.isArray(value) ? value : [value]) if (typeof v === 'string') recordSecret(v, `${source} → ${key}`);
    } else {
      recordSecretsIn(value, source);
    }
  }
}

/** The `token` of every link in a received e-mail. */
export function recordLinkTokens(text: string, source: string): void {
  for (const m of text.matchAll(/[?&]token=([A-Za-z0-9_-]+)/g)) recordSecret(m[1]!, source);
}

function remember(line: string): void {
  capturedLines++;
  for (const word of line.match(WORD) ?? []) {
    // A word may end in the '.' of a sentence, or hold a JWT (dots inside): both forms are kept.
    for (const form of [word, word.replace(/^\.+|\.+$/g, '')]) if (form.length >= MIN_SECRET_LENGTH && !seen.has(form)) seen.set(form, line.slice(0, 400));
  }
}

/** Where every test server's log lines go (one JSON line per write). */
export const logCapture = new Writable({
  write(chunk: Buffer, _enc, done) {
    for (const line of chunk.toString('utf8').split('\n')) if (line) remember(line);
    done();
  },
});

export interface Leak {
  source: string;
  line: string;
}

/** Secrets of the run found in a captured line. */
export function leakedSecrets(): Leak[] {
  const leaks: Leak[] = [];
  for (const [secret, source] of minted) {
    const line = seen.get(secret);
    if (line !== undefined) leaks.push({ source, line });
  }
  return leaks;
}

export function secretLogFigures(): { secrets: number; lines: number } {
  return { secrets: minted.size, lines: capturedLines };
}
