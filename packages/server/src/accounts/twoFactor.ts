/**
 * Two-factor sign-in with an authenticator app (TOTP, RFC 6238: SHA-1, 6 digits, 30 s — what
 * every app reads from the QR code) and ten single-use recovery codes.
 *
 * - The secret is kept on the user's row, encrypted with the data directory's key like other
 *   secrets (settings/crypto.ts; re-encrypted on key rotation, settings/rotation.ts).
 * - Enrolment stores a new secret and shows it; only a first code from the app enables it.
 * - A code is accepted in its 30 s step or the one before or after (clocks drift), and never
 *   twice: the step of the last accepted code is kept, and only a later one passes. Every check
 *   runs with the user's row locked, so two requests cannot spend one code.
 * - Recovery codes: 80 random bits each, shown once; only their SHA-256 is kept.
 * How many codes may be tried is bounded by the sign-in limits (accounts/loginAttempts.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Transaction } from 'sequelize';
import {
  RECOVERY_CODE_COUNT,
  SECURITY_MESSAGES,
  TOTP_DIGITS,
  TOTP_PERIOD_SECONDS,
  type TwoFactorSetupResponse,
} from '@aabify/shared';
import type { AppContext } from '../context.js';
import type { RecoveryCode, User } from '../models/index.js';
import { ApiError } from '../http/errors.js';
import { qrSvgDataUrl } from '../http/qrCodes.js';
import { encryptJson, isEncryptedValue, keyRingOf, openJson } from '../settings/crypto.js';
import type { AuditActor } from '../audit/actor.js';
import { recordAudit } from '../audit/recorder.js';
import { userAuditTarget } from './userPresenter.js';

type Ctx = Pick<AppContext, 'models' | 'sequelize' | 'secrets'>;

export const TOTP_ISSUER = 'aabify';
/** Steps before and after the current one whose codes are still accepted. */
export const TOTP_WINDOW = 1;

/** The authenticated data of a user's sealed secret: a ciphertext copied to another row opens nothing. */
export function totpAad(userId: string): string {
  return `totp:${userId}`;
}

function totpFor(user: Pick<User, 'email'>, secret: Secret): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label: user.email, algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, secret });
}

function openSecret(ctx: Ctx, user: User): Secret | null {
  if (!isEncryptedValue(user.totpSecret)) return null;
  const opened = openJson(user.totpSecret, keyRingOf(ctx.secrets), totpAad(user.id)).value;
  return typeof opened === 'string' ? Secret.fromBase32(opened) : null;
}

// Crockford's base32 (no i, l, o, u): read aloud or copied by hand without confusion.
const RECOVERY_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const RECOVERY_LENGTH = 16;

function newRecoveryCode(): string {
  const bytes = randomBytes(RECOVERY_LENGTH);
  let code = '';
  for (let i = 0; i < RECOVERY_LENGTH; i++) code += RECOVERY_ALPHABET[bytes[i]! & 31];
  return code.match(/.{4}/g)!.join('-');
}

/** A typed recovery code as stored: lower case, no separators, look-alike letters read as digits. */
export function normaliseRecoveryCode(typed: string): string | null {
  const code = typed.toLowerCase().replace(/[\s-]/g, '').replace(/o/g, '0').replace(/[il]/g, '1');
  return code.length === RECOVERY_LENGTH && [...code].every((c) => RECOVERY_ALPHABET.includes(c)) ? code : null;
}

const hashRecoveryCode = (normalised: string) => createHash('sha256').update(normalised).digest('hex');

function newRecoveryCodes(): { shown: string[]; stored: RecoveryCode[] } {
  const shown = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  return { shown, stored: shown.map((code) => ({ hash: hashRecoveryCode(normaliseRecoveryCode(code)!), usedAt: null })) };
}

const isAppCode = (code: string) => new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(code.replace(/\s/g, ''));

/** The time step a code of the app belongs to (within the window), or null. */
function stepOf(user: User, secret: Secret, code: string, now: number): number | null {
  const totp = totpFor(user, secret);
  const delta = totp.validate({ token: code.replace(/\s/g, ''), timestamp: now, window: TOTP_WINDOW });
  return delta === null ? null : totp.counter({ timestamp: now }) + delta;
}

const codeInvalid = () =>
  new ApiError(400, 'TWO_FACTOR_CODE_INVALID', SECURITY_MESSAGES.twoFactorCodeInvalid, { fields: { code: SECURITY_MESSAGES.twoFactorCodeInvalid } });

async function lockedUser(ctx: Ctx, userId: string, transaction: Transaction): Promise<User> {
  const user = await ctx.models.User.findByPk(userId, { transaction, lock: transaction.LOCK.NO_KEY_UPDATE });
  if (!user) throw ApiError.unauthorized();
  return user;
}

export function recoveryCodesLeft(user: User): number {
  return user.twoFactorEnabled() ? user.recoveryCodes.filter((c) => c.usedAt === null).length : 0;
}

/** POST /auth/2fa/setup: a new secret for the app (replacing an unconfirmed one), shown once. */
export async function beginEnrolment(ctx: Ctx, userId: string): Promise<TwoFactorSetupResponse> {
  const secret = new Secret({ size: 20 });
  const user = await ctx.sequelize.transaction(async (transaction) => {
    const locked = await lockedUser(ctx, userId, transaction);
    if (locked.twoFactorEnabled()) throw ApiError.conflict(SECURITY_MESSAGES.twoFactorAlreadyEnabled, 'TWO_FACTOR_ALREADY_ENABLED');
    locked.totpSecret = encryptJson(secret.base32, keyRingOf(ctx.secrets).current, totpAad(locked.id));
    await locked.save({ transaction });
    return locked;
  });
  const otpauthUrl = totpFor(user, secret).toString();
  return { secret: secret.base32, otpauthUrl, qrCode: await qrSvgDataUrl(otpauthUrl) };
}

/** POST /auth/2fa/enable: a first code of the app turns it on; the recovery codes, shown once. */
export async function confirmEnrolment(ctx: Ctx, actor: AuditActor, userId: string, code: string, now: number = Date.now()): Promise<string[]> {
  return ctx.sequelize.transaction(async (transaction) => {
    const user = await lockedUser(ctx, userId, transaction);
    if (user.twoFactorEnabled()) throw ApiError.conflict(SECURITY_MESSAGES.twoFactorAlreadyEnabled, 'TWO_FACTOR_ALREADY_ENABLED');
    const secret = openSecret(ctx, user);
    if (!secret) throw ApiError.conflict(SECURITY_MESSAGES.twoFactorSetupMissing, 'TWO_FACTOR_SETUP_MISSING');
    const step = stepOf(user, secret, code, now);
    if (step === null) throw codeInvalid();
    const codes = newRecoveryCodes();
    user.set({ totpEnabledAt: new Date(now), totpLastStep: step, recoveryCodes: codes.stored });
    await user.save({ transaction });
    await recordAudit(ctx, { action: 'two_factor.enabled', actor, target: userAuditTarget(user) }, { transaction });
    return codes.shown;
  });
}

export type SecondFactor = 'totp' | 'recovery';

/**
 * Spends a code of the user's second factor: the app's (a step later than the last accepted
 * one) or an unused recovery code. Null when it is not valid, used, or 2FA is off.
 */
export async function useSecondFactor(ctx: Ctx, userId: string, code: string, now: number = Date.now()): Promise<SecondFactor | null> {
  return ctx.sequelize.transaction(async (transaction) => {
    const user = await lockedUser(ctx, userId, transaction);
    if (!user.twoFactorEnabled()) return null;
    if (isAppCode(code)) {
      const secret = openSecret(ctx, user);
      const step = secret ? stepOf(user, secret, code, now) : null;
      if (step === null || (user.totpLastStep !== null && step <= user.totpLastStep)) return null;
      user.totpLastStep = step;
      await user.save({ transaction });
      return 'totp';
    }
    const normalised = normaliseRecoveryCode(code);
    if (!normalised) return null;
    const hash = hashRecoveryCode(normalised);
    const index = user.recoveryCodes.findIndex((c) => c.hash === hash && c.usedAt === null);
    if (index < 0) return null;
    user.recoveryCodes = user.recoveryCodes.map((c, i) => (i === index ? { ...c, usedAt: new Date(now).toISOString() } : c));
    await user.save({ transaction });
    return 'recovery';
  });
}

/** POST /auth/2fa/recovery-codes: ten new codes; the old ones stop working. */
export async function regenerateRecoveryCodes(ctx: Ctx, actor: AuditActor, userId: string): Promise<string[]> {
  return ctx.sequelize.transaction(async (transaction) => {
    const user = await lockedUser(ctx, userId, transaction);
    if (!user.twoFactorEnabled()) throw ApiError.conflict(SECURITY_MESSAGES.twoFactorNotEnabled, 'TWO_FACTOR_NOT_ENABLED');
    const codes = newRecoveryCodes();
    user.recoveryCodes = codes.stored;
    await user.save({ transaction });
    await recordAudit(ctx, { action: 'two_factor.recovery_codes_regenerated', actor, target: userAuditTarget(user) }, { transaction });
    return codes.shown;
  });
}

/** POST /auth/2fa/disable (after the password and a code were checked): secret and codes go. */
export async function disableTwoFactor(ctx: Ctx, actor: AuditActor, userId: string): Promise<void> {
  await ctx.sequelize.transaction(async (transaction) => {
    const user = await lockedUser(ctx, userId, transaction);
    user.set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null, recoveryCodes: [] });
    await user.save({ transaction });
    await recordAudit(ctx, { action: 'two_factor.disabled', actor, target: userAuditTarget(user) }, { transaction });
  });
}
