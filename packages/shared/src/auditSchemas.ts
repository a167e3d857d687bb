/** Request schemas of the audit trail: Admin › Auditoria's filters (list and CSV) and an account's activity pages. */
import { date, mixed, object, string, type InferType } from 'yup';
import { adminListQueryFields } from './adminSchemas.js';
import { AUDIT_ACTION_CODES, AUDIT_LIMITS, AUDIT_MESSAGES, AUDIT_TARGET_TYPES, type AuditAction, type AuditTargetType } from './audit.js';

const { page, limit, emptyToUndefined } = adminListQueryFields;
const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);
const text = () => string().transform(trimmed).transform(emptyToUndefined).max(AUDIT_LIMITS.filterMaxLength, AUDIT_MESSAGES.filterTooLong).optional();
const when = () => date().transform(emptyToUndefined).typeError(AUDIT_MESSAGES.dateInvalid);

/** The filters of Admin › Auditoria, shared by the list and the CSV export. */
const auditFilterFields = {
  /** The actor's e-mail (any part) or id. */
  actor: text(),
  action: mixed<AuditAction>().transform(emptyToUndefined).oneOf([...AUDIT_ACTION_CODES, undefined], AUDIT_MESSAGES.actionInvalid).optional(),
  targetType: mixed<AuditTargetType>().transform(emptyToUndefined).oneOf([...AUDIT_TARGET_TYPES, undefined], AUDIT_MESSAGES.targetTypeInvalid).optional(),
  /** The target's id (exact) or what it was called (any part). */
  target: text(),
  /** Client address (any part: '203.0.113.' finds the block). */
  address: text(),
  /** From this instant (inclusive). */
  from: when(),
  /** Until this instant (inclusive). */
  to: when().when('from', ([from], s) => (from instanceof Date ? s.min(from, AUDIT_MESSAGES.rangeInvalid) : s)),
};

/** GET /admin/audit/export */
export const adminAuditFilterSchema = object(auditFilterFields);
export type AdminAuditFilter = InferType<typeof adminAuditFilterSchema>;

/** GET /admin/audit */
export const adminAuditQuerySchema = object({ page: page(), limit: limit(AUDIT_LIMITS.pageSize), ...auditFilterFields });
export type AdminAuditQuery = InferType<typeof adminAuditQuerySchema>;

/** GET /account/activity */
export const accountActivityQuerySchema = object({ page: page(), limit: limit(AUDIT_LIMITS.pageSize) });
export type AccountActivityQuery = InferType<typeof accountActivityQuerySchema>;
