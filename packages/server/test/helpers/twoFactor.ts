/**
 * Codes of an authenticator app for tests, from the secret POST /auth/2fa/setup shows (the same
 * RFC 6238 parameters the server uses), and enrolment through the real API.
 *
 *   const { secret, recoveryCodes } = await enrolTwoFactor(server, sessionToken);
 *   await api(server).post('/auth/login/2fa', { challenge, code: totpCode(secret, Date.now() + 30_000) });
 */
import { expect } from 'chai';
import { Secret, TOTP } from 'otpauth';
import { TOTP_DIGITS, TOTP_PERIOD_SECONDS, type RecoveryCodesResponse, type TwoFactorSetupResponse } from '@aabify/shared';
import { api } from './http.js';

/** The app's code at `at` (ms): a code of the next step (at + 30 s) is accepted too, once. */
export function totpCode(secret: string, at: number = Date.now()): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, algorithm: 'SHA1' }).generate({ timestamp: at });
}

/** Enrols the session's account: setup, then the first code. */
export async function enrolTwoFactor(server: { url: string }, session: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await api(server).post<TwoFactorSetupResponse>('/auth/2fa/setup', undefined, session);
  expect(setup.status, JSON.stringify(setup.body)).to.equal(200);
  const enabled = await api(server).post<RecoveryCodesResponse>('/auth/2fa/enable', { code: totpCode(setup.body.secret) }, session);
  expect(enabled.status, JSON.stringify(enabled.body)).to.equal(200);
  return { secret: setup.body.secret, recoveryCodes: enabled.body.recoveryCodes };
}
