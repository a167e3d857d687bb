/** The actor of a request (audit/actor.ts): its signed-in user, or the user a sign-in or a link names, and where it came from. */
import type { Request } from 'express';
import type { User } from '../models/index.js';
import { authUser } from '../http/guards.js';
import { clientAddress } from '../http/rateLimit.js';
import { actorUser, type AuditActor, type SignedInActor } from './actor.js';

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
