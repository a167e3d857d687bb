/**
 * Reading the audit trail in tests, the way an admin does: Admin › Auditoria's list filtered by
 * action and target, then the event's detail (before, after, details).
 *
 *   const event = await auditEvent(server, adminToken, 'user.credits_changed', user.id);
 *   expect(event.after).to.deep.equal({ credits: 15 });
 */
import { expect } from 'chai';
import type { AuditAction, AuditEventDetail, AuditEventListResponse } from '@aabify/shared';
import { api } from './http.js';

/** The events of one action (and target, by id or label), newest first, through GET /admin/audit. */
export async function auditEvents(server: { url: string }, adminToken: string, action: AuditAction, target?: string): Promise<AuditEventListResponse['events']> {
  const query = new URLSearchParams({ action, limit: '100', ...(target !== undefined ? { target } : {}) });
  const res = await api(server).get<AuditEventListResponse>(`/admin/audit?${query.toString()}`, adminToken);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.events;
}

/** The newest event of the action on the target, with what changed (GET /admin/audit/{id}); fails when there is none. */
export async function auditEvent(server: { url: string }, adminToken: string, action: AuditAction, target?: string): Promise<AuditEventDetail> {
  const [newest] = await auditEvents(server, adminToken, action, target);
  expect(newest, `no ${action} event${target ? ` for ${target}` : ''} in the audit trail`).to.not.equal(undefined);
  const res = await api(server).get<AuditEventDetail>(`/admin/audit/${newest!.id}`, adminToken);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}
