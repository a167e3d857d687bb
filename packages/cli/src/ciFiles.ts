/**
 * The files CI systems read after `aabify convert`, written from the same ConvertResult that
 * `--json` prints (docs/cli.md "CI pipelines"):
 *   --github-output FILE  GitHub's step outputs (`$GITHUB_OUTPUT`): aab, conversion-id, size, json
 *   --summary FILE        a Markdown job summary (`$GITHUB_STEP_SUMMARY`), appended
 *   --dotenv FILE         AABIFY_AAB, AABIFY_CONVERSION_ID, AABIFY_AAB_SIZE (GitLab `reports: dotenv`)
 * A failed command still writes its summary and outputs (empty ones), so the job page says why.
 */
import { appendFile, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { usageError } from './api/errors.js';
import type { ChecklistRow } from './checklist.js';
import type { ConvertResult } from './convertResult.js';
import { formatBytes, formatDecimal } from './format.js';
import { jsonDocument } from './jsonDocument.js';

export interface CiFileFlags {
  githubOutput?: string;
  summary?: string;
  dotenv?: string;
}

export interface CiFailure {
  code: string;
  message: string;
  conversionId?: string;
}

// eslint-disable-next-line no-control-regex
const oneLine = (text: string): string => text.replace(/[\x00-\x1f\x7f-\x9f\u2028\u2029]+/g, ' ');

/**
 * Foreign text (the APK's manifest, the server's report and messages, file names) as inert
 * Markdown on one line: every character that Markdown or HTML could turn into a link, an image,
 * a tag, emphasis, code or a cell of its own becomes a character reference.
 */
export function markdownText(text: string): string {
  return oneLine(text).replace(/[&<>`[\]!*_|\\~#@]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Foreign text as inline code: a plain code span when nothing in it can end the span or the table cell. */
export function markdownCode(text: string): string {
  const line = oneLine(text);
  return /[`|]/.test(line) ? `<code>${markdownText(line)}</code>` : `\`${line}\``;
}

/** `key=value` lines of GitHub's output file; a value with a newline uses the delimiter form. */
export function githubOutputLines(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([key, value]) => {
      if (!/[\r\n]/.test(value)) return `${key}=${value}\n`;
      const delimiter = `aabify_${Math.random().toString(36).slice(2)}`;
      return `${key}<<${delimiter}\n${value}\n${delimiter}\n`;
    })
    .join('');
}

/**
 * `KEY=value` lines of a dotenv file. GitLab's dotenv report has no multi-line values: a CR or
 * LF in a value would start a variable of its own in later jobs, so such a value is refused.
 */
export function dotenvLines(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([key, value]) => {
      if (/[\r\n\0]/.test(value)) throw usageError(`O valor de ${key} tem uma quebra de linha e não cabe num arquivo dotenv; o arquivo --dotenv não foi gravado.`, 'DOTENV_VALUE_INVALID');
      return `${key}=${value}\n`;
    })
    .join('');
}

const CHECK_MARKS: Record<ChecklistRow['status'], string> = { blocker: '⛔ **impede a publicação:**', warning: '⚠️ **atenção:**', ok: '✅' };

/** The Markdown job summary of a saved AAB: app, version, sizes, per-device estimate, checklist, warnings. */
export function summaryMarkdown(r: ConvertResult): string {
  const app = r.app.packageName ?? '—';
  const version = r.app.versionName || r.app.versionCode !== null ? `${r.app.versionName ?? '—'} (código ${r.app.versionCode ?? '—'})` : '—';
  const rows: [string, string][] = [
    ['App', markdownCode(app)],
    ['Versão', markdownText(version)],
    ['APK', r.inputBytes !== null ? formatBytes(r.inputBytes) : '—'],
    ['AAB', `${formatBytes(r.bytes)} — ${markdownCode(basename(r.output))}`],
    ['Modo', r.mode === 'local' ? 'local (nesta máquina)' : `servidor, conversão ${markdownCode(r.conversionId ?? '')}`],
    ['Assinatura', r.signature ? `chave de upload ${markdownCode(r.signature.alias)} (SHA-256 ${markdownText(r.signature.certificateSha256.slice(0, 23))}…)` : 'não assinado'],
  ];
  const lines = ['### aabify: AAB gerado', '', '| | |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${v} |`), ''];
  if (r.downloadSizes.length > 0) {
    lines.push('**Download estimado pelo Google Play, por dispositivo**', '', '| Dispositivo | Com o APK | Com o AAB | Economia |', '|---|--:|--:|--:|');
    for (const d of r.downloadSizes) {
      lines.push(
        d.compatible
          ? `| ${markdownText(d.label)} | ${formatBytes(d.apkBytes)} | ${formatBytes(d.bundleBytes)} | ${d.savedBytes >= 0 ? '−' : '+'}${formatDecimal(Math.abs(d.savedPercent))}% |`
          : `| ${markdownText(d.label)} | — | — | incompatível |`,
      );
    }
    lines.push('');
  }
  if (r.checklist.length > 0) {
    lines.push('**Antes de enviar ao Google Play**', '', ...r.checklist.map((c) => `- ${CHECK_MARKS[c.status]} ${markdownText(c.title)}${c.action ? ` — ${markdownText(c.action)}` : ''}`), '');
  }
  if (r.warnings.length > 0) {
    lines.push(`**Avisos (${r.warnings.length})**`, '', ...r.warnings.map((w) => `- ${markdownText(w.message)} ${markdownCode(w.code)}`), '');
  } else {
    lines.push('Nenhum aviso.', '');
  }
  return `${lines.join('\n')}\n`;
}

export function failureMarkdown(f: CiFailure): string {
  return `### aabify: a conversão falhou\n\n${markdownText(f.message)} ${markdownCode(f.code)}${f.conversionId ? `\n\nConversão ${markdownCode(f.conversionId)}` : ''}\n\n`;
}

/** Writes every file asked for, for a saved AAB (`result`) or a failure. */
export async function writeCiFiles(flags: CiFileFlags, outcome: { result: ConvertResult } | { failure: CiFailure } | { conversionId: string }): Promise<void> {
  const result = 'result' in outcome ? outcome.result : undefined;
  const conversionId = result?.conversionId ?? ('conversionId' in outcome ? outcome.conversionId : 'failure' in outcome ? outcome.failure.conversionId : undefined) ?? '';
  if (flags.githubOutput) {
    const doc = result ? jsonDocument({ ok: true, ...result }) : undefined;
    await appendFile(flags.githubOutput, githubOutputLines({ aab: result?.output ?? '', 'conversion-id': conversionId, size: result ? String(result.bytes) : '', json: doc ? JSON.stringify(doc) : '' }));
  }
  if (flags.summary) {
    if (result) await appendFile(flags.summary, summaryMarkdown(result));
    else if ('failure' in outcome) await appendFile(flags.summary, failureMarkdown(outcome.failure));
    else await appendFile(flags.summary, `### aabify: APK enviado\n\nConversão ${markdownCode(conversionId)} na fila do servidor; acompanhe com ${markdownCode(`aabify status ${conversionId}`)}.\n\n`);
  }
  if (flags.dotenv) {
    await writeFile(flags.dotenv, dotenvLines({ AABIFY_AAB: result?.output ?? '', AABIFY_CONVERSION_ID: conversionId, AABIFY_AAB_SIZE: result ? String(result.bytes) : '' }));
  }
}
