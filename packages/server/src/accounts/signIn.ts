/**
 * What happens once a password (or an e-mailed link) proved who someone is: a session — or,
 * on an account with two-factor sign-in, a short-lived challenge that only a code turns into
 * a session (never a session before the code). Sign-in, setup, password reset and address
 * confirmation all end here, so none can skip the second step.
 */
import type { Request } from 'express';
import { SECURITY_MESSAGES, type AuthResponse, type SignInResponse } from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { User } from '../models/index.js';
import { clientAddress } from '../http/rateLimit.js';
import { presentSession } from './userPresenter.js';
import { signInHistory } from './sessions.js';
import { describeDevice, deviceKey, storedUserAgent } from './devices.js';

type Ctx = Pick<AppContext, 'auth' | 'models' | 'sequelize' | 'settings' | 'mail' | 'logger'>;

/** Where a sign-in comes from, as its session keeps it. */
export interface RequestOrigin {
  userAgent: string | null;
  address: string | null;
}

export function requestOrigin(req: Request): RequestOrigin {
  return { userAgent: storedUserAgent(req.headers['user-agent']), address: clientAddress(req).slice(0, 64) };
}

export interface OpenSessionOptions {
  /** E-mail the owner when the device or the address is new to the account (a sign-in, not a first session). */
  alertNewDevice?: boolean;
  /** The session a sign-in challenge fixed (null answer when it was opened already). */
  sessionId?: string;
}

/**
 * A session for a user who proved the password (and the code, when the account has one).
 * Limited to two-factor enrolment for an administrator without it where it is required.
 */
export async function openSession(ctx: Ctx, user: User, origin: RequestOrigin, opts: OpenSessionOptions = {}): Promise<AuthResponse | null> {
  const enrolmentRequired = user.hasAdminRole() && !user.twoFactorEnabled() && (await ctx.settings.get('accounts.requireAdminTwoFactor')) === true;
  const history = opts.alertNewDevice ? await signInHistory(ctx, user.id, origin.userAgent, origin.address) : undefined;
  const started = await ctx.auth.startSession(user, { ...origin, enrolmentRequired, sessionId: opts.sessionId });
  if (!started) return null;
  if (history?.any && (!history.deviceSeen || !history.addressSeen)) {
    await ctx.mail.newSignIn(user, { device: describeDevice(origin.userAgent), deviceKey: deviceKey(origin.userAgent), address: origin.address, at: started.session.createdAt });
  }
  return presentSession(ctx.auth, user, started.token, enrolmentRequired);
}

/** After the password: a session, or the two-factor challenge. */
export async function passwordProven(ctx: Ctx, user: User, origin: RequestOrigin, opts: Pick<OpenSessionOptions, 'alertNewDevice'> = {}): Promise<SignInResponse> {
  if (user.twoFactorEnabled()) {
    return { twoFactorRequired: true, ...ctx.auth.issueChallenge(user), message: SECURITY_MESSAGES.twoFactorChallengePrompt };
  }
  const session = await openSession(ctx, user, origin, opts);
  // A fresh id cannot be taken: only a challenge's can.
  if (!session) throw new Error('new session id already in use');
  return session;
}
