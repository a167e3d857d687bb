/**
 * Admin › Auditoria's CSV export: the filtered events, newest first, written to the answer in
 * batches as they are read (never the whole set in memory), at most AUDIT_LIMITS.exportMaxRows.
 * Cells go through http/csv.ts, so a value someone typed (an e-mail, a plan's name, a user
 * agent) can never run as a spreadsheet formula.
 */
import type { Response } from 'express';
import { Op, type WhereOptions } from 'sequelize';
import { AUDIT_TARGET_LABELS, auditActionLabel, type AuditTargetType } from '@aabify/shared';
import type { AuditEvent, Models } from '../models/index.js';
import { CSV_BOM, csvLine } from '../http/csv.js';

export const AUDIT_CSV_HEADER = [
  'Quando (horário de Brasília)',
  'Ação',
  'Código',
  'Quem',
  'Papel',
  'Via',
  'Token de API',
  'Endereço',
  'Navegador',
  'Alvo',
  'Id do alvo',
  'Nome do alvo',
  'Conta afetada',
  'Antes',
  'Depois',
  'Detalhes',
];

const BATCH = 500;
const SAO_PAULO = new Intl.DateTimeFormat('sv-SE', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
const json = (v: Record<string, unknown> | null) => (v ? JSON.stringify(v) : '');
const targetLabel = (type: string | null) => (type ? (AUDIT_TARGET_LABELS[type as AuditTargetType] ?? type) : '');

export function auditCsvLine(e: AuditEvent): string {
  return csvLine([
    SAO_PAULO.format(e.at),
    auditActionLabel(e.action),
    e.action,
    e.actorEmail ?? (e.actorId ? e.actorId : 'sistema'),
    e.actorRole,
    e.via === 'api_token' ? 'token de API' : e.via === 'session' ? 'sessão' : '',
    e.apiTokenId,
    e.address,
    e.userAgent,
    targetLabel(e.targetType),
    e.targetId,
    e.targetLabel,
    e.accountId,
    json(e.before),
    json(e.after),
    json(e.details),
  ]);
}

/** auditoria-2025-01-31.csv (São Paulo date). */
export function auditCsvFileName(now: Date = new Date()): string {
  return `auditoria-${SAO_PAULO.format(now).slice(0, 10)}.csv`;
}

/** Writes a chunk; resolves false when the client went away (nothing more should be read). */
function write(res: Response, chunk: string): Promise<boolean> {
  if (res.destroyed || res.writableEnded) return Promise.resolve(false);
  if (res.write(chunk)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

/** Streams the CSV body (headers are the caller's); answers how many events were written. */
export async function streamAuditCsv(models: Pick<Models, 'AuditEvent'>, res: Response, where: WhereOptions<AuditEvent>, maxRows: number): Promise<number> {
  let written = 0;
  let lastId: string | undefined;
  if (!(await write(res, CSV_BOM + csvLine(AUDIT_CSV_HEADER)))) return 0;
  while (written < maxRows) {
    const rows = await models.AuditEvent.findAll({
      where: { [Op.and]: [where, ...(lastId !== undefined ? [{ id: { [Op.lt]: lastId } }] : [])] },
      order: [['id', 'DESC']],
      limit: Math.min(BATCH, maxRows - written),
    });
    if (rows.length === 0) break;
    if (!(await write(res, rows.map(auditCsvLine).join('')))) return written;
    written += rows.length;
    lastId = String(rows[rows.length - 1]!.id);
    if (rows.length < BATCH) break;
  }
  res.end();
  return written;
}
