/**
 * Who did something, as the audit trail records it: the signed-in user (a copy of their id,
 * e-mail and role as they were), how they were signed in, and where the request came from.
 * Commands that change something for someone take one, so their event is written with the
 * change. A route makes it from its request (audit/requestActor.ts).
 */
import type { UserRole } from '@aabify/shared';
import type { User } from '../models/index.js';

export interface AuditActorUser {
  id: string;
  email: string;
  role: UserRole;
}

export interface AuditActor {
  /** null: nobody signed in (a refused sign-in of an unknown address) or the system's own jobs. */
  user: AuditActorUser | null;
  via: 'session' | 'api_token' | null;
  /** The API token it acted with (a leaked token's doings can be told from its owner's). */
  apiTokenId: string | null;
  address: string | null;
  userAgent: string | null;
}

/** An actor that is a signed-in user (admin commands, account changes). */
export type SignedInActor = AuditActor & { user: AuditActorUser };

/** The service itself (retention, jobs). */
export const SYSTEM_ACTOR: AuditActor = Object.freeze({ user: null, via: null, apiTokenId: null, address: null, userAgent: null });

export const actorUser = (user: Pick<User, 'id' | 'email' | 'role'>): AuditActorUser => ({ id: user.id, email: user.email, role: user.role });

/** A user acting outside a request (scripts, tests): no address, no browser. */
export function userActor(user: User, via: AuditActor['via'] = 'session'): SignedInActor {
  return { user: actorUser(user), via, apiTokenId: null, address: null, userAgent: null };
}
