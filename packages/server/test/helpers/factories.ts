/**
 * Test data. Users are written straight to the database (no HTTP), with a known password;
 * tokenFor() signs a session token as /auth/login would.
 *
 *   const user = await buildUser(server, { userType: 'credit', credits: 3 });
 *   const res = await api(server).get('/auth/me', tokenFor(server, user));
 */
import { randomBytes } from 'node:crypto';
import type { InferCreationAttributes } from 'sequelize';
import type { AppContext } from '../../src/context.js';
import type { BillingDetails } from '@aabify/shared';
import type { User } from '../../src/models/index.js';
import { hashPassword } from '../../src/accounts/password.js';
import { recordSecret } from './secretLog.js';

export const DEFAULT_PASSWORD = 'senha-de-teste-123';

/** Anything holding the models: a running server, or the parts a test builds itself. */
/** A server's context, or only the models (a service tested alone: the shipped legal texts, version 1, are current). */
type HasContext = { ctx: Pick<AppContext, 'models'> & Partial<Pick<AppContext, 'legal'>> };
export type UserOverrides = Partial<Omit<InferCreationAttributes<User>, 'passwordHash'>> & { password?: string };

// scrypt is deliberately slow: each distinct password is hashed once per test run.
const hashes = new Map<string, Promise<string>>();
export function passwordHashFor(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashes.set(password, hash);
  }
  return hash;
}

let sequence = 0;
export function uniqueEmail(label = 'user'): string {
  sequence++;
  return `${label}-${sequence}-${randomBytes(3).toString('hex')}@example.com`;
}

/** Billing details every test user has (a purchase cannot start without them); override with `billingDetails`. */
export const TEST_BILLING: BillingDetails = {
  document: '52998224725',
  name: 'Cliente de Teste',
  email: 'financeiro@example.com',
  cep: '01310-100',
  street: 'Avenida Paulista',
  number: '1000',
  complement: null,
  district: 'Bela Vista',
  city: 'São Paulo',
  cityCode: '3550308',
  state: 'SP',
};

/** A user who accepted the current Termos de Uso and Política de Privacidade, as sign-up leaves one (override to test asking again), with billing details. */
export async function buildUser(server: HasContext, overrides: UserOverrides = {}): Promise<User> {
  const { password = DEFAULT_PASSWORD, ...fields } = overrides;
  const accepted = server.ctx.legal ? await server.ctx.legal.currentVersions() : { terms: 1, privacy: 1 };
  return server.ctx.models.User.create({
    email: uniqueEmail(fields.role === 'admin' ? 'admin' : 'user'),
    passwordHash: await passwordHashFor(password),
    termsAcceptedVersion: accepted.terms,
    privacyAcceptedVersion: accepted.privacy,
    billingDetails: TEST_BILLING,
    ...fields,
  });
}

export function buildAdmin(server: HasContext, overrides: UserOverrides = {}): Promise<User> {
  return buildUser(server, { name: 'Administrador', ...overrides, role: 'admin' });
}

/** A user with an active credit plan. */
export function buildCreditUser(server: HasContext, credits = 10, overrides: UserOverrides = {}): Promise<User> {
  return buildUser(server, { userType: 'credit', credits, planActivatedAt: new Date(), ...overrides });
}

/** A user with a subscription expiring in `days` (negative: already expired). */
export function buildSubscriber(server: HasContext, days = 30, overrides: UserOverrides = {}): Promise<User> {
  const now = Date.now();
  return buildUser(server, {
    userType: 'subscription',
    subscriptionPlanId: crypto.randomUUID(),
    subscriptionStartsAt: new Date(now - 86400000),
    subscriptionExpiresAt: new Date(now + days * 86400000),
    planActivatedAt: new Date(now - 86400000),
    ...overrides,
  });
}

/** A session token for the user, as sign-in would give. */
export function tokenFor(server: { ctx: Pick<AppContext, 'auth'> }, user: User): string {
  const token = server.ctx.auth.issueToken(user);
  recordSecret(token, 'tokenFor');
  return token;
}
