/** Admin › Auditoria's filters as a query on audit_events (the list and the CSV export read the same set). */
import { Op, type WhereOptions } from 'sequelize';
import { isUuid, type AdminAuditFilter } from '@aabify/shared';
import type { AuditEvent } from '../models/index.js';
import { likePattern } from '../http/listing.js';

export function auditWhere(filter: AdminAuditFilter): WhereOptions<AuditEvent> {
  const and: WhereOptions<AuditEvent>[] = [];
  if (filter.actor) {
    and.push(isUuid(filter.actor) ? { actorId: filter.actor.toLowerCase() } : { actorEmail: { [Op.iLike]: likePattern(filter.actor) } });
  }
  if (filter.action) and.push({ action: filter.action });
  if (filter.targetType) and.push({ targetType: filter.targetType });
  if (filter.target) {
    const id = isUuid(filter.target) ? filter.target.toLowerCase() : filter.target;
    and.push({ [Op.or]: [{ targetId: id }, { targetLabel: { [Op.iLike]: likePattern(filter.target) } }] });
  }
  if (filter.address) and.push({ address: { [Op.iLike]: likePattern(filter.address) } });
  if (filter.from) and.push({ at: { [Op.gte]: filter.from } });
  if (filter.to) and.push({ at: { [Op.lte]: filter.to } });
  return { [Op.and]: and };
}
