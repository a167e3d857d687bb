/** Output helpers every command shares: facts in pt-BR, sizes, durations and failures. */
import type { ApkInfo } from '@aabify/converter';
// The errors module alone: the engine itself is loaded only by the commands that run it.
import { isConverterError } from '@aabify/converter/errors';
import { CliError } from './api/errors.js';
import { EXIT_FAILED } from './exitCodes.js';
import { writeJsonDocument } from './jsonDocument.js';
import { sanitize } from './safeText.js';

/**
 * `n` as `new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1, minimumFractionDigits })`
 * writes it (`1.234,5`, `-0`), without Intl: the first pt-BR formatter loads ICU's locale data,
 * ~10 ms of every `convert --local`. Like ICU, it rounds the shortest decimal that reads back as
 * `n` (what `String(n)` prints), half away from zero.
 */
export function formatDecimal(n: number, minimumFractionDigits: 0 | 1 = 0): string {
  if (!Number.isFinite(n)) return new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1, minimumFractionDigits }).format(n);
  const text = String(Math.abs(n));
  // Exponent notation is below 1e-6 (0 once rounded) or from 1e21 (an integer: no fraction digits).
  const [int, fraction = ''] = text.includes('e') ? (Math.abs(n) < 1 ? ['0'] : [BigInt(Math.abs(n)).toString()]) : text.split('.');
  let tenths = BigInt(int + (fraction[0] ?? '0'));
  if (fraction.length > 1 && fraction[1] >= '5') tenths += 1n;
  const digits = tenths.toString().padStart(2, '0');
  const whole = digits.slice(0, -1).replace(/\B(?=(\d{3})+$)/g, '.');
  const tenth = digits.slice(-1);
  const sign = n < 0 || Object.is(n, -0) ? '-' : '';
  return `${sign}${whole}${tenth !== '0' || minimumFractionDigits === 1 ? `,${tenth}` : ''}`;
}

const number = { format: (n: number): string => formatDecimal(n) };

/** `6,4 MB`, `512 B`: sizes as a Brazilian reader writes them (1 MB = 1 000 000 B). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${number.format(bytes / 1000)} kB`;
  if (bytes < 1_000_000_000) return `${number.format(bytes / 1_000_000)} MB`;
  return `${number.format(bytes / 1_000_000_000)} GB`;
}

export function formatSeconds(ms: number): string {
  return `${formatDecimal(ms / 1000, 1)} s`;
}

function listOrNone(items: readonly (string | number)[]): string {
  return items.length === 0 ? 'nenhuma' : items.join(', ');
}

const DENSITY_NAMES: Record<number, string> = {
  120: 'ldpi',
  160: 'mdpi',
  213: 'tvdpi',
  240: 'hdpi',
  320: 'xhdpi',
  480: 'xxhdpi',
  640: 'xxxhdpi',
  0xfffe: 'anydpi',
  0xffff: 'nodpi',
};

/** `xhdpi`, `anydpi`, or `280dpi` for a density without a name. */
export function formatDensity(dpi: number): string {
  return DENSITY_NAMES[dpi] ?? `${dpi}dpi`;
}

/** `Label: value` rows with the values aligned in one column. */
export function formatRows(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(...rows.map(([l]) => l.length)) + 2;
  return rows.map(([label, value]) => `  ${`${label}:`.padEnd(width)}${value}`);
}

/** The facts of an APK as aligned `Label: value` lines, in pt-BR. */
export function formatApkFacts(info: ApkInfo): string[] {
  return formatRows(apkFactRows(info));
}

export function apkFactRows(info: ApkInfo): [string, string][] {
  const absent = '(não declarado)';
  const rows: [string, string][] = [
    ['Pacote', sanitize(info.packageName, false)],
    ['Versão', info.versionName !== undefined ? sanitize(info.versionName, false) : absent],
    ['Código de versão', info.versionCode !== undefined ? String(info.versionCode) : absent],
    ['SDK mínimo', info.minSdk !== undefined ? String(info.minSdk) : absent],
    ['SDK alvo', info.targetSdk !== undefined ? String(info.targetSdk) : absent],
    ['ABIs', listOrNone(info.abis)],
    ['Idiomas', info.locales.length === 0 ? 'nenhum' : `${info.locales.length} (${info.locales.slice(0, 12).join(', ')}${info.locales.length > 12 ? ', …' : ''})`],
    ['Densidades', listOrNone(info.densities.map(formatDensity))],
    ['Arquivos dex', String(info.dexCount)],
    ['Arquivos no APK', String(info.entryCount)],
    ['Tamanho', formatBytes(info.sizeBytes)],
    ['Depurável', info.debuggable ? 'sim' : 'não'],
  ];
  return rows;
}

export interface CommandFailure {
  code: string;
  message: string;
  detail?: string;
}

/** A thrown value as code + pt-BR message (engine errors keep theirs; anything else is internal). */
export function describeFailure(e: unknown): CommandFailure {
  if (isConverterError(e)) return { code: e.code, message: e.message, ...(e.detail ? { detail: e.detail } : {}) };
  if (e instanceof CliError) return { code: e.code, message: e.message, ...(e.extra.detail ? { detail: e.extra.detail } : {}) };
  const detail = e instanceof Error ? e.message : String(e);
  return { code: 'INTERNAL', message: 'Erro interno do aabify.', detail };
}

/**
 * Prints a failure: the pt-BR message and code on stderr (the detail too, for bug reports), and
 * with --json an `{ ok: false, error }` object on stdout so pipelines always get JSON. Sets the
 * exit code.
 */
export function reportFailure(e: unknown, json: boolean, fallbackExitCode = EXIT_FAILED): void {
  const failure = describeFailure(e);
  // A CliError knows its exit code (a usage error, a Google Play refusal).
  const exitCode = e instanceof CliError ? e.exitCode : fallbackExitCode;
  // The engine's messages and details quote the input file (entry names, manifest values).
  process.stderr.write(`erro: ${sanitize(failure.message, false)} [${sanitize(failure.code, false)}]\n`);
  if (failure.detail) process.stderr.write(`  detalhe: ${sanitize(failure.detail, false)}\n`);
  if (json) writeJsonDocument({ ok: false, error: failure, exitCode });
  process.exitCode = exitCode;
}
