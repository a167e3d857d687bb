/**
 * A real SMTP server on loopback (the `smtp-server` package) for e-mail tests: it requires
 * AUTH with the credentials of its URL, parses every accepted message with `mailparser`, and
 * can refuse the next N messages with a temporary error (451) to exercise retries.
 *
 *   const smtp = await startTestSmtp();
 *   const server = await startTestServer({ SMTP_URL: smtp.url, PUBLIC_URL: 'http://aabify.test' });
 *   const mail = await smtp.waitFor((m) => m.to === 'x@example.com');
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { recordLinkTokens } from './secretLog.js';

export interface ReceivedMail {
  to: string;
  from: string;
  subject: string;
  html: string;
  text: string;
  /** The SMTP envelope's recipients. */
  rcptTo: string[];
}

export interface TestSmtp {
  /** smtp://user:pass@127.0.0.1:port */
  url: string;
  readonly received: ReceivedMail[];
  /** Attempts the server refused (451) so far. */
  readonly refused: number;
  /** Resolves with the first received message (already or later) matching `match`. */
  waitFor(match: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** The next `count` messages are refused with 451 (count Infinity: every one). */
  refuseNext(count: number): void;
  close(): Promise<void>;
}

const USER = 'aabify';
const PASS = 'senha-smtp-de-teste';

export async function startTestSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const waiters: Array<{ match: (m: ReceivedMail) => boolean; resolve: (m: ReceivedMail) => void }> = [];
  let refuse = 0;
  let refused = 0;

  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === USER && auth.password === PASS) return callback(null, { user: USER });
      callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (refuse > 0) {
          refuse--;
          refused++;
          const err = Object.assign(new Error('Servidor ocupado, tente mais tarde'), { responseCode: 451 });
          return callback(err);
        }
        simpleParser(Buffer.concat(chunks)).then(
          (parsed) => {
            const mail: ReceivedMail = {
              to: Array.isArray(parsed.to) ? parsed.to.map((a) => a.text).join(', ') : (parsed.to?.value[0]?.address ?? ''),
              from: parsed.from?.text ?? '',
              subject: parsed.subject ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              text: parsed.text ?? '',
              rcptTo: session.envelope.rcptTo.map((r) => r.address),
            };
            received.push(mail);
            recordLinkTokens(`${mail.text}\n${mail.html}`, `e-mail "${mail.subject}"`);
            for (const w of [...waiters]) {
              if (w.match(mail)) {
                waiters.splice(waiters.indexOf(w), 1);
                w.resolve(mail);
              }
            }
            callback();
          },
          (err: Error) => callback(err),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://${USER}:${PASS}@127.0.0.1:${port}`,
    received,
    get refused() {
      return refused;
    },
    waitFor(match, timeoutMs = 30_000) {
      const found = received.find(match);
      if (found) return Promise.resolve(found);
      return new Promise<ReceivedMail>((resolve, reject) => {
        const waiter = { match, resolve: (m: ReceivedMail) => (clearTimeout(timer), resolve(m)) };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no matching e-mail within ${timeoutMs} ms (received: ${received.map((m) => `${m.to}: ${m.subject}`).join('; ') || 'none'})`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    refuseNext(count) {
      refuse = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The `token` of the first link to `path` in a received message's text part. */
export function linkToken(mail: ReceivedMail, path: string): string {
  const m = new RegExp(`https?://[^\\s]+${path.replace(/[/]/g, '\\/')}\\?token=([A-Za-z0-9_-]+)`).exec(mail.text);
  if (!m) throw new Error(`no ${path} link in: ${mail.text}`);
  return m[1]!;
}

/** The full URL of the first link to `path` in a received message's text part. */
export function linkUrl(mail: ReceivedMail, path: string): string {
  const m = new RegExp(`https?://[^\\s]+${path.replace(/[/]/g, '\\/')}\\?token=[A-Za-z0-9_-]+`).exec(mail.text);
  if (!m) throw new Error(`no ${path} link in: ${mail.text}`);
  return m[0];
}
