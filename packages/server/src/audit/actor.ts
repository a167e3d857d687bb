/**
 * Who did something, as the audit trail records it: the signed-in user (a copy of their id,
 * e-mail and role as they were), how they were signed in, and where the request came from.
 * Commands that change something for someone take one, so their event is written with the change.
 */
import type { Request } from 'express';
import type { UserRole } from '@aabify/shared';
import type { User } from '../models/index.js';
import { authUser } from '../http/guards.js';
import { clientAddress } from '../http/rateLimit.js';

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

const actorUser = (user: User): AuditActorUser => ({ id: user.id, email: user.email, role: user.role });

function origin(req: Request): Pick<AuditActor, 'address' | 'userAgent'> {
  const userAgent = req.get('user-agent');
  return { address: clientAddress(req), userAgent: userAgent ? userAgent : null };
}

/** The signed-in user of the request (after requireAuth; a 401 otherwise). */
export function signedInActor(req: Request): SignedInActor {
  const user = authUser(req);
  const byToken = req.auth?.method === 'api_token';
  return { user: actorUser(user), via: byToken ? 'api_token' : 'session', apiTokenId: byToken ? (req.auth?.apiTokenId ?? null) : null, ...origin(req) };
}

/** A request whose user is known by other means than its credential (sign-in, a link), or nobody. */
export function requestActor(req: Request, user: User | null): AuditActor {
  return { user: user ? actorUser(user) : null, via: null, apiTokenId: null, ...origin(req) };
}

/** A user acting outside a request (scripts, tests): no address, no browser. */
export function userActor(user: User, via: AuditActor['via'] = 'session'): SignedInActor {
  return { user: actorUser(user), via, apiTokenId: null, address: null, userAgent: null };
}
