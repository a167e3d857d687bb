/**
 * The pre-publication checklist in the CLI: the rows `convert --json` and `check --json` carry
 * (`checklist: [{ code, status, title, action }]`), their pt-BR lines and Markdown, and
 * `--fail-on blocker|warning`, which ends a run that produced its result with EXIT_CHECKLIST
 * when a row is at least that serious (docs/cli.md "Exit codes").
 */
import { InvalidArgumentError } from 'commander';
import { prePublicationChecklist, type PlayCheck, type PlayCheckInput, type PlayCheckStatus } from '@aabify/shared/playChecklist';
import { isRecord } from '@aabify/shared/json';
import { str } from './api/types.js';
import { EXIT_CHECKLIST, EXIT_OK } from './exitCodes.js';

export interface ChecklistRow {
  code: string;
  status: PlayCheckStatus;
  title: string;
  /** What to do; null when all is well. */
  action: string | null;
}

export const FAIL_ON_LEVELS = ['blocker', 'warning'] as const;
export type FailOnLevel = (typeof FAIL_ON_LEVELS)[number];

export function parseFailOn(value: string): FailOnLevel {
  if (!(FAIL_ON_LEVELS as readonly string[]).includes(value)) throw new InvalidArgumentError('use blocker (só itens que impedem a publicação) ou warning (também alertas).');
  return value as FailOnLevel;
}

const STATUSES: readonly string[] = ['ok', 'warning', 'blocker'];

function row(c: PlayCheck): ChecklistRow {
  return { code: c.code, status: c.status, title: c.title, action: c.action ?? null };
}

const ORDER: Record<PlayCheckStatus, number> = { blocker: 0, warning: 1, ok: 2 };

/**
 * The checklist of a report made on this machine (a conversion's, or `check`'s), leaving out
 * what it cannot answer; `versionCodeRow` (the comparison with Google Play) replaces its own.
 */
export function checklistOf(report: PlayCheckInput, notChecked: readonly string[] = [], versionCodeRow?: PlayCheck): ChecklistRow[] {
  const checks = prePublicationChecklist(report).filter((c) => !notChecked.includes(c.code));
  if (versionCodeRow) {
    const at = checks.findIndex((c) => c.code === 'versionCode');
    if (at >= 0) checks.splice(at, 1, versionCodeRow);
    else checks.push(versionCodeRow);
    checks.sort((a, b) => ORDER[a.status] - ORDER[b.status]);
  }
  return checks.map(row);
}

/** The checklist the server answered with a conversion (its rows as sent; malformed ones left out). */
export function serverChecklist(raw: unknown): ChecklistRow[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isRecord).flatMap((c) => {
    const code = str(c.code);
    const title = str(c.title);
    const status = str(c.status);
    if (!code || title === undefined || !status || !STATUSES.includes(status)) return [];
    return [{ code, status: status as PlayCheckStatus, title, action: str(c.action) ?? null }];
  });
}

/** The rows `--fail-on level` fails on: blockers, and with `warning` the warnings too. */
export function failingRows(rows: readonly ChecklistRow[], level: FailOnLevel | undefined): ChecklistRow[] {
  if (!level) return [];
  return rows.filter((r) => r.status === 'blocker' || (level === 'warning' && r.status === 'warning'));
}

const LABELS: Record<PlayCheckStatus, string> = { blocker: 'IMPEDE', warning: 'ATENÇÃO', ok: 'ok' };

/** The checklist as pt-BR lines for people (the APK's names are in them: print through sanitize). */
export function checklistLines(rows: readonly ChecklistRow[]): string[] {
  if (rows.length === 0) return [];
  const blockers = rows.filter((r) => r.status === 'blocker').length;
  const warnings = rows.filter((r) => r.status === 'warning').length;
  const summary = blockers + warnings === 0 ? 'tudo certo' : [blockers ? `${blockers} impede(m) a publicação` : '', warnings ? `${warnings} alerta(s)` : ''].filter(Boolean).join(', ');
  const lines = [`Antes de enviar ao Google Play (${summary}):`];
  for (const r of rows) {
    lines.push(`  - [${LABELS[r.status]}] ${r.title} (${r.code})`);
    if (r.action) lines.push(`      O que fazer: ${r.action}`);
  }
  return lines;
}

/** `--fail-on` in a JSON document: the level and the codes that failed it. */
export function failOnDoc(rows: readonly ChecklistRow[], level: FailOnLevel | undefined): Record<string, unknown> {
  if (!level) return {};
  const failing = failingRows(rows, level);
  return { failOn: { level, failed: failing.length > 0, codes: failing.map((r) => r.code) } };
}

/**
 * EXIT_CHECKLIST when `--fail-on` finds rows at its level (said on stderr; the result is printed
 * and the AAB saved already), else EXIT_OK.
 */
export function checklistExitCode(rows: readonly ChecklistRow[], level: FailOnLevel | undefined): typeof EXIT_OK | typeof EXIT_CHECKLIST {
  const failing = failingRows(rows, level);
  if (failing.length === 0) return EXIT_OK;
  process.stderr.write(`aabify: --fail-on ${level}: ${failing.length} ${failing.length === 1 ? 'item' : 'itens'} do checklist do Google Play (${failing.map((r) => r.code).join(', ')}).\n`);
  return EXIT_CHECKLIST;
}
