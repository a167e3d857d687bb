/**
 * How remote commands talk: the result on stdout (one JSON document with --json, otherwise the
 * human answer), everything else — progress, live status, warnings — on stderr. On a terminal a
 * progress bar is redrawn in place; off a terminal (CI logs, pipes) or with --quiet only plain
 * lines. Whatever is printed goes through sanitize (safeText.ts), on a terminal or not: the
 * human text carries the server's words.
 */
import { EXIT_USAGE, toCliError } from './api/errors.js';
import { formatBytes } from './format.js';
import { writeJsonDocument } from './jsonDocument.js';
import { sanitize } from './safeText.js';

export { formatBytes, sanitize };

export interface OutputOptions {
  json?: boolean;
  quiet?: boolean;
}

export class Output {
  readonly json: boolean;
  readonly quiet: boolean;
  /** A bar redrawn in place only on a terminal and without --quiet. */
  readonly live: boolean;
  private statusLine = '';

  constructor(options: OutputOptions, private readonly err: NodeJS.WriteStream = process.stderr, private readonly out: NodeJS.WriteStream = process.stdout) {
    this.json = options.json === true;
    this.quiet = options.quiet === true;
    this.live = err.isTTY === true && !this.quiet;
  }

  /** A human line on stderr (above the live status line, if any). */
  info(line: string): void {
    this.clearStatus();
    this.err.write(`${sanitize(line)}\n`);
    this.redrawStatus();
  }

  warn(line: string): void {
    this.info(`aviso: ${line}`);
  }

  /** The command's answer: `doc` as JSON on stdout with --json, else `human` lines on stdout. */
  result(doc: Record<string, unknown>, human: string | string[]): void {
    this.clearStatus();
    this.statusLine = '';
    if (this.json) {
      writeJsonDocument({ ok: true, ...doc }, this.out);
      const lines = Array.isArray(human) ? human : [human];
      // The human text still reaches people reading a CI log.
      if (lines.length > 0 && !this.quiet) this.err.write(`${lines.map((l) => sanitize(l)).join('\n')}\n`);
    } else {
      const text = Array.isArray(human) ? human.join('\n') : human;
      this.out.write(`${sanitize(text)}\n`);
    }
  }

  /** A failure: message and code on stderr, `{ ok: false, error, exitCode }` on stdout with --json. Returns the exit code. */
  failure(e: unknown, doc: Record<string, unknown> = {}): number {
    const error = toCliError(e);
    this.clearStatus();
    this.statusLine = '';
    this.err.write(`erro: ${sanitize(error.message, false)} [${sanitize(error.code, false)}]\n`);
    if (error.extra.fields) {
      for (const [field, message] of Object.entries(error.extra.fields)) this.err.write(`  ${sanitize(field, false)}: ${sanitize(message, false)}\n`);
    }
    if (error.extra.detail && error.code !== 'INTERNAL') this.err.write(`  detalhe: ${sanitize(error.extra.detail, false)}\n`);
    else if (error.extra.detail && process.env.AABIFY_DEBUG) this.err.write(`${sanitize(error.extra.detail)}\n`);
    if (this.json) writeJsonDocument({ ok: false, ...error.extra.doc, ...doc, error: error.toJson(), exitCode: error.exitCode }, this.out);
    return error.exitCode;
  }

  /** Replaces the live status line (terminal only; a no-op elsewhere). */
  status(line: string): void {
    if (!this.live) return;
    const width = Math.max(20, (this.err.columns || 80) - 1);
    const text = sanitize(line, false);
    this.statusLine = text.length > width ? `${text.slice(0, width - 1)}…` : text;
    this.redrawStatus();
  }

  clearStatus(): void {
    if (this.live && this.statusLine) this.err.write('\r\x1b[2K');
  }

  endStatus(): void {
    this.clearStatus();
    this.statusLine = '';
  }

  private redrawStatus(): void {
    if (this.live && this.statusLine) this.err.write(`\r\x1b[2K${this.statusLine}`);
  }

  /** Byte progress: a bar on a terminal, a plain line every few seconds elsewhere. */
  progress(label: string, total: number | undefined, start = 0): ByteProgress {
    return new ByteProgress(this, label, total, start);
  }
}

const PLAIN_INTERVAL_MS = 5000;

export class ByteProgress {
  private lastDraw = 0;
  private lastPlain = Date.now();
  private lastPlainPercent = 0;

  constructor(private readonly output: Output, private readonly label: string, private total: number | undefined, private done = 0) {}

  setTotal(total: number | undefined): void {
    this.total = total;
  }

  update(done: number): void {
    this.done = done;
    const now = Date.now();
    if (this.output.live) {
      if (now - this.lastDraw < 100) return;
      this.lastDraw = now;
      this.output.status(this.line(true));
      return;
    }
    const percent = this.percent();
    // Off a terminal: a line every 5 s, and at each quarter.
    const quarter = percent !== undefined && Math.floor(percent / 25) > Math.floor(this.lastPlainPercent / 25);
    if (now - this.lastPlain >= PLAIN_INTERVAL_MS || (quarter && percent !== 100)) {
      this.lastPlain = now;
      this.lastPlainPercent = percent ?? this.lastPlainPercent;
      this.output.info(this.line(false));
    }
  }

  finish(message?: string): void {
    this.output.endStatus();
    if (message) this.output.info(message);
  }

  private percent(): number | undefined {
    return this.total ? Math.min(100, Math.floor((this.done / this.total) * 100)) : undefined;
  }

  private line(bar: boolean): string {
    const percent = this.percent();
    const amount = this.total ? `${formatBytes(this.done)} de ${formatBytes(this.total)}` : formatBytes(this.done);
    if (percent === undefined) return `${this.label}: ${amount}`;
    if (!bar) return `${this.label}: ${percent}% (${amount})`;
    const width = 30;
    const filled = Math.round((percent / 100) * width);
    return `${this.label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(percent).padStart(3)}% ${amount}`;
  }
}

/**
 * With --json on the command line, a usage error commander found (unknown option, missing
 * argument, bad value) is also a JSON document on stdout, so a pipeline parsing stdout never
 * gets nothing.
 */
export function writeUsageErrorJson(err: { code: string; message: string }, argv: readonly string[] = process.argv): void {
  if (!argv.includes('--json')) return;
  const message = err.message.replace(/^error: /, '');
  writeJsonDocument({ ok: false, error: { code: 'USAGE_ERROR', message, detail: err.code }, exitCode: EXIT_USAGE });
}
