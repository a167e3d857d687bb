import type { SessionJson } from '@aabify/shared';
import type { Session } from '../models/index.js';
import { describeDevice } from './devices.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A session as its owner sees it (never its secret); `currentId` marks the one asking. */
export function presentSession(row: Session, currentId: string | undefined): SessionJson {
  return {
    id: row.id,
    device: describeDevice(row.userAgent),
    userAgent: row.userAgent,
    address: row.address,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: iso(row.lastUsedAt),
    expiresAt: row.expiresAt.toISOString(),
    current: row.id === currentId,
  };
}
