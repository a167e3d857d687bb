/** The only way an audit event leaves the server as JSON: for admins (list, detail) and for the account it concerns. */
import { auditActionLabel, describeUserAgent, type AccountActivityJson, type AuditEventDetail, type AuditEventJson, type UserRole } from '@aabify/shared';
import type { AuditEvent } from '../models/index.js';

const ROLES: readonly string[] = ['user', 'admin'] satisfies UserRole[];

export function presentAuditEvent(e: AuditEvent): AuditEventJson {
  return {
    id: String(e.id),
    at: e.at.toISOString(),
    action: e.action,
    actor: { id: e.actorId, email: e.actorEmail, role: e.actorRole !== null && ROLES.includes(e.actorRole) ? (e.actorRole as UserRole) : null },
    via: e.via,
    apiTokenId: e.apiTokenId,
    address: e.address,
    userAgent: e.userAgent,
    target: e.targetType ? { type: e.targetType, id: e.targetId, label: e.targetLabel } : null,
    accountId: e.accountId,
  };
}

export function presentAuditDetail(e: AuditEvent): AuditEventDetail {
  return { ...presentAuditEvent(e), before: e.before, after: e.after, details: e.details };
}

/**
 * An event of the viewer's own account. What an administrator did shows as such, without the
 * admin's address or browser; the account's own events show where they came from.
 */
export function presentAccountActivity(e: AuditEvent, accountId: string): AccountActivityJson {
  const own = e.actorId === null || e.actorId === accountId;
  return {
    id: String(e.id),
    at: e.at.toISOString(),
    action: e.action,
    label: auditActionLabel(e.action),
    byAdmin: !own,
    address: own ? e.address : null,
    device: own ? describeUserAgent(e.userAgent) : null,
  };
}
