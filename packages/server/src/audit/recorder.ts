/**
 * Writing the audit trail: one call, `recordAudit(ctx, entry, { transaction })`, from the
 * command that makes the change, inside the change's own transaction when there is one (the
 * event exists exactly when the change commits; a failure to write it undoes the change).
 *
 *   await recordAudit(ctx, {
 *     action: 'user.credits_changed',
 *     actor,                                  // audit/actor.ts: signedInActor(req)
 *     target: { type: 'user', id: user.id, label: user.email },
 *     ...auditChanges(before, after),         // only the fields that differ
 *   }, { transaction });
 *
 * Values are stored as given, bounded, with any field named like a secret (password, token,
 * secret, hash, private key, keystore) replaced by a mask: callers pass what an admin may read,
 * and this is the safety net. Rows are append-only (migration 0170); see docs/security.md.
 */
import type { Sequelize, Transaction } from 'sequelize';
import type { AuditAction, AuditTargetType } from '@aabify/shared';
import type { AuditActor } from './actor.js';

export type AuditValues = Record<string, unknown>;

export interface AuditEntry {
  action: AuditAction;
  actor: AuditActor;
  /** What the action was done to; `label` is what it was called then (an e-mail, a plan's name). */
  target?: { type: AuditTargetType; id: string | null; label?: string | null } | null;
  /** The account the event concerns (its security log may show it); defaults to a user target. */
  accountId?: string | null;
  before?: AuditValues | null;
  after?: AuditValues | null;
  /** Facts of the event that are not a state (a reason, a count, how it was done). */
  details?: AuditValues | null;
}

export interface RecordAuditOptions {
  transaction?: Transaction;
  /**
   * Nothing is written when the same actor recorded the same action on the same target within
   * this many milliseconds (an admin polling a customer's conversion is one event, not hundreds).
   */
  onceWithinMs?: number;
}

/** What replaces a secret's value. */
export const SECRET_MASK = '[oculto]';

const SECRET_FIELD = /(password|secret|token|hash|privatekey|keystore)$/i;
const MAX_STRING = 1000;
const MAX_ITEMS = 200;
const MAX_DEPTH = 5;
const MAX_JSON = 16_000;

function bounded(value: unknown, depth: number): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (typeof value === 'string') return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((v) => bounded(v, depth + 1));
  if (typeof value === 'object') return masked(value as AuditValues, depth + 1);
  return String(value);
}

function masked(values: AuditValues, depth: number): AuditValues {
  const out: AuditValues = {};
  for (const [key, value] of Object.entries(values).slice(0, MAX_ITEMS)) {
    if (value === undefined) continue;
    // A flag or a count under a secret's name (keystoreRemoved: true) says nothing secret.
    const secret = SECRET_FIELD.test(key) && (typeof value === 'string' || (typeof value === 'object' && value !== null));
    out[key] = secret ? SECRET_MASK : bounded(value, depth);
  }
  return out;
}

/** The values as stored: secrets masked, strings, lists and depth bounded; JSON text or null. */
export function auditJson(values: AuditValues | null | undefined): string | null {
  if (!values) return null;
  const json = JSON.stringify(masked(values, 0));
  return json.length > MAX_JSON ? JSON.stringify({ truncated: true }) : json;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(bounded(a, 0)) === JSON.stringify(bounded(b, 0));

/** The fields of two snapshots that differ, as the entry's before and after. */
export function auditChanges(before: AuditValues, after: AuditValues): { before: AuditValues; after: AuditValues } {
  const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => !same(before[k], after[k]));
  return {
    before: Object.fromEntries(changed.map((k) => [k, before[k] ?? null])),
    after: Object.fromEntries(changed.map((k) => [k, after[k] ?? null])),
  };
}

const cut = (value: string | null | undefined, max: number): string | null => (value ? value.slice(0, max) : null);

export async function recordAudit(ctx: { sequelize: Sequelize }, entry: AuditEntry, opts: RecordAuditOptions = {}): Promise<void> {
  const { actor, target } = entry;
  const replacements = {
    actorId: actor.user?.id ?? null,
    actorEmail: cut(actor.user?.email, 255),
    actorRole: actor.user?.role ?? null,
    via: actor.via,
    apiTokenId: actor.apiTokenId,
    address: cut(actor.address, 64),
    userAgent: cut(actor.userAgent, 512),
    action: entry.action,
    targetType: target?.type ?? null,
    targetId: cut(target?.id, 64),
    targetLabel: cut(target?.label, 255),
    accountId: entry.accountId !== undefined ? entry.accountId : target?.type === 'user' ? target.id : null,
    before: auditJson(entry.before),
    after: auditJson(entry.after),
    details: auditJson(entry.details),
    withinSeconds: (opts.onceWithinMs ?? 0) / 1000,
  };
  const once =
    opts.onceWithinMs === undefined
      ? ''
      : `WHERE NOT EXISTS (SELECT 1 FROM audit_events e WHERE e."targetType" IS NOT DISTINCT FROM CAST(:targetType AS varchar)
           AND e."targetId" IS NOT DISTINCT FROM CAST(:targetId AS varchar) AND e.action = :action
           AND e."actorId" IS NOT DISTINCT FROM CAST(:actorId AS uuid) AND e.at > clock_timestamp() - make_interval(secs => :withinSeconds))`;
  await ctx.sequelize.query(
    `INSERT INTO audit_events ("actorId", "actorEmail", "actorRole", via, "apiTokenId", address, "userAgent", action, "targetType", "targetId", "targetLabel", "accountId", before, after, details)
     SELECT CAST(:actorId AS uuid), CAST(:actorEmail AS varchar), CAST(:actorRole AS varchar), CAST(:via AS varchar), CAST(:apiTokenId AS uuid), CAST(:address AS varchar),
            CAST(:userAgent AS varchar), CAST(:action AS varchar), CAST(:targetType AS varchar), CAST(:targetId AS varchar), CAST(:targetLabel AS varchar),
            CAST(:accountId AS uuid), CAST(:before AS jsonb), CAST(:after AS jsonb), CAST(:details AS jsonb)
     ${once}`,
    { replacements, transaction: opts.transaction },
  );
}
