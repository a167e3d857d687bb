/**
 * Signing flags shared by `convert --local` and `keygen` (`--ks`, `--ks-alias`, `--ks-pass`,
 * `--key-pass`), with passwords given as jarsigner/apksigner do: `env:VAR`, `pass:X` or `file:F`
 * (never typed on a terminal that logs commands), and the pt-BR lines for a signed report and
 * for the per-device download estimate.
 */
import { readFileSync } from 'node:fs';
import { InvalidArgumentError } from 'commander';
import type { DeviceDownloadSize, SignatureReport } from '@aabify/converter';
import { formatBytes, formatDecimal, formatRows } from './format.js';

export interface SigningFlags {
  ks?: string;
  ksAlias?: string;
  ksPass?: string;
  keyPass?: string;
}

/** Validates the form of a password spec at parse time; the value is resolved when used. */
export function parsePasswordSpec(value: string): string {
  if (!/^(env|pass|file):/.test(value)) {
    throw new InvalidArgumentError('use env:VARIAVEL, pass:SENHA ou file:ARQUIVO (ex.: --ks-pass env:KS_PASS).');
  }
  return value;
}

/** The password a spec names; throws a pt-BR Error when the variable or file is missing. */
export function resolvePassword(spec: string, what: string): string {
  const i = spec.indexOf(':');
  const kind = spec.slice(0, i);
  const rest = spec.slice(i + 1);
  if (kind === 'pass') return rest;
  if (kind === 'env') {
    const v = process.env[rest];
    if (v === undefined) throw new Error(`${what}: a variável de ambiente ${rest} não está definida.`);
    return v;
  }
  let text: string;
  try {
    text = readFileSync(rest, 'utf8');
  } catch (e) {
    throw new Error(`${what}: não foi possível ler ${rest} (${(e as Error).message}).`);
  }
  // Like apksigner: the first line of the file, without its line break.
  return text.split(/\r?\n/)[0];
}

/** The engine's sign options from the flags, or undefined when --ks is absent. */
export function signOptionsFrom(flags: SigningFlags): { keystore: string; storePassword: string; alias?: string; keyPassword?: string } | undefined {
  if (!flags.ks) {
    if (flags.ksAlias || flags.ksPass || flags.keyPass) throw new Error('--ks-alias, --ks-pass e --key-pass exigem --ks <keystore>.');
    return undefined;
  }
  if (!flags.ksPass) throw new Error('informe a senha do keystore com --ks-pass env:VAR, pass:SENHA ou file:ARQUIVO.');
  return {
    keystore: flags.ks,
    storePassword: resolvePassword(flags.ksPass, '--ks-pass'),
    ...(flags.ksAlias ? { alias: flags.ksAlias } : {}),
    ...(flags.keyPass ? { keyPassword: resolvePassword(flags.keyPass, '--key-pass') } : {}),
  };
}

export function signatureLines(sig: SignatureReport): string[] {
  return [
    'Assinatura (chave de upload):',
    ...formatRows([
      ['Alias', `${sig.alias} (${sig.keystoreFormat}, ${sig.keyAlgorithm} ${sig.keySize} bits)`],
      ['Algoritmo', sig.signatureAlgorithm],
      ['Certificado', sig.subject],
      ['SHA-256', sig.certificateSha256],
      ['Válido até', sig.notAfter.slice(0, 10)],
    ]),
  ];
}

/** `Economia estimada por dispositivo` as aligned lines. */
/** What the per-device lines need: the engine's own report or the one a server conversion stored. */
export type DownloadSizeRow = Pick<DeviceDownloadSize, 'compatible' | 'bundleBytes' | 'apkBytes' | 'savedBytes' | 'savedPercent'> & { device: { label: string } };

/** report.downloadSizes of a server conversion (the API's flat `DeviceDownloadSizeJson`), well-formed rows only. */
export function downloadSizesOfReport(report: unknown): DownloadSizeRow[] {
  const sizes = typeof report === 'object' && report !== null ? (report as { downloadSizes?: unknown }).downloadSizes : undefined;
  if (!Array.isArray(sizes)) return [];
  const rows: DownloadSizeRow[] = [];
  for (const s of sizes as unknown[]) {
    if (typeof s !== 'object' || s === null) continue;
    const r = s as Record<string, unknown>;
    const numbers = [r.bundleBytes, r.apkBytes, r.savedBytes, r.savedPercent];
    if (typeof r.label !== 'string' || typeof r.compatible !== 'boolean' || !numbers.every((n) => typeof n === 'number' && Number.isFinite(n))) continue;
    const [bundleBytes, apkBytes, savedBytes, savedPercent] = numbers as number[];
    rows.push({ device: { label: r.label }, compatible: r.compatible, bundleBytes: bundleBytes!, apkBytes: apkBytes!, savedBytes: savedBytes!, savedPercent: savedPercent! });
  }
  return rows;
}

export function downloadSizeLines(sizes: readonly DownloadSizeRow[] | undefined): string[] {
  if (!sizes || sizes.length === 0) return [];
  return [
    'Economia estimada por dispositivo (download pelo Google Play):',
    ...formatRows(
      sizes.map((s) => [
        s.device.label,
        s.compatible
          ? `${formatBytes(s.bundleBytes)} com o AAB × ${formatBytes(s.apkBytes)} com o APK (${s.savedBytes >= 0 ? '−' : '+'}${formatDecimal(Math.abs(s.savedPercent))}%)`
          : 'incompatível (o app não tem bibliotecas nativas para esta ABI)',
      ]),
    ),
  ];
}
