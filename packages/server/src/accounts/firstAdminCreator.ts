/**
 * First-run setup: the first administrator. Closed for good once any admin has ever existed
 * (deleted ones count). Concurrent calls serialise on a transaction-scoped advisory lock, so
 * exactly one of them creates the admin.
 */
import type { Sequelize } from 'sequelize';
import { ACCOUNT_MESSAGES } from '@aabify/shared';
import type { Models, User } from '../models/index.js';
import { hashPassword } from './password.js';
import { ApiError } from '../http/errors.js';
import { createUser } from './userCreator.js';

const SETUP_LOCK_KEY = 0x0aab5e7;

export async function requiresSetup(deps: { models: Pick<Models, 'User'> }): Promise<boolean> {
  const admins = await deps.models.User.count({ where: { role: 'admin' }, paranoid: false });
  return admins === 0;
}

export function setupDoneError(): ApiError {
  return ApiError.forbidden(ACCOUNT_MESSAGES.setupAlreadyDone, 'SETUP_ALREADY_DONE');
}

export async function createFirstAdmin(
  deps: { models: Pick<Models, 'User'>; sequelize: Sequelize },
  input: { email: string; password: string; name: string },
): Promise<User> {
  if (!(await requiresSetup(deps))) throw setupDoneError();
  const passwordHash = await hashPassword(input.password);
  return deps.sequelize.transaction(async (transaction) => {
    await deps.sequelize.query(`SELECT pg_advisory_xact_lock(${SETUP_LOCK_KEY})`, { transaction });
    const admins = await deps.models.User.count({ where: { role: 'admin' }, paranoid: false, transaction });
    if (admins > 0) throw setupDoneError();
    // The operator types their own address on a fresh install, where no one can have registered
    // it before them (the address would be taken): it counts as confirmed, so the first admin can
    // make API tokens (the CLI's login) even when no e-mail can be sent yet.
    return createUser(deps, { ...input, role: 'admin', emailVerifiedAt: new Date() }, { transaction, passwordHash });
  });
}
