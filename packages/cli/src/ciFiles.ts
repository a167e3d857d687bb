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

const escapeCell = (text: string): string => text.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');

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

/** The Markdown job summary of a saved AAB: app, version, sizes, per-device estimate, warnings. */
export function summaryMarkdown(r: ConvertResult): string {
  const app = r.app.packageName ?? '—';
  const version = r.app.versionName || r.app.versionCode !== null ? `${r.app.versionName ?? '—'} (código ${r.app.versionCode ?? '—'})` : '—';
  const rows: [string, string][] = [
    ['App', `\`${escapeCell(app)}\``],
    ['Versão', escapeCell(version)],
    ['APK', r.inputBytes !== null ? formatBytes(r.inputBytes) : '—'],
    ['AAB', `${formatBytes(r.bytes)} — \`${escapeCell(basename(r.output))}\``],
    ['Modo', r.mode === 'local' ? 'local (nesta máquina)' : `servidor, conversão \`${r.conversionId}\``],
    ['Assinatura', r.signature ? `chave de upload \`${escapeCell(r.signature.alias)}\` (SHA-256 ${r.signature.certificateSha256.slice(0, 23)}…)` : 'não assinado'],
  ];
  const lines = ['### aabify: AAB gerado', '', '| | |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${v} |`), ''];
  if (r.downloadSizes.length > 0) {
    lines.push('**Download estimado pelo Google Play, por dispositivo**', '', '| Dispositivo | Com o APK | Com o AAB | Economia |', '|---|--:|--:|--:|');
    for (const d of r.downloadSizes) {
      lines.push(
        d.compatible
          ? `| ${escapeCell(d.label)} | ${formatBytes(d.apkBytes)} | ${formatBytes(d.bundleBytes)} | ${d.savedBytes >= 0 ? '−' : '+'}${formatDecimal(Math.abs(d.savedPercent))}% |`
          : `| ${escapeCell(d.label)} | — | — | incompatível |`,
      );
    }
    lines.push('');
  }
  if (r.warnings.length > 0) {
    lines.push(`**Avisos (${r.warnings.length})**`, '', ...r.warnings.map((w) => `- ${escapeCell(w.message)} \`${w.code}\``), '');
  } else {
    lines.push('Nenhum aviso.', '');
  }
  return `${lines.join('\n')}\n`;
}

export function failureMarkdown(f: CiFailure): string {
  return `### aabify: a conversão falhou\n\n${escapeCell(f.message)} \`${f.code}\`${f.conversionId ? `\n\nConversão \`${f.conversionId}\`` : ''}\n\n`;
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
    else await appendFile(flags.summary, `### aabify: APK enviado\n\nConversão \`${conversionId}\` na fila do servidor; acompanhe com \`aabify status ${conversionId}\`.\n\n`);
  }
  if (flags.dotenv) {
    // dotenv values stay on one line: paths and ids never hold a newline.
    await writeFile(flags.dotenv, `AABIFY_AAB=${result?.output ?? ''}\nAABIFY_CONVERSION_ID=${conversionId}\nAABIFY_AAB_SIZE=${result ? result.bytes : ''}\n`);
  }
}
