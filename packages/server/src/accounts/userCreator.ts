/**
 * Creating an account (register, first admin, admin's create-user, demo seed): hashes the
 * password and answers 409 with a field error when the email is taken.
 */
import { UniqueConstraintError, type Transaction } from 'sequelize';
import { ACCOUNT_MESSAGES, normalizeEmail, type UserRole, type UserType } from '@aabify/shared';
import type { Models, User } from '../models/index.js';
import { hashPassword } from './password.js';
import { ApiError } from '../http/errors.js';

export interface NewUser {
  email: string;
  password: string;
  name?: string | null;
  role?: UserRole;
  userType?: UserType | null;
  credits?: number;
  /** Set only where the address needs no confirmation link (first-run setup). */
  emailVerifiedAt?: Date | null;
}

export function emailTakenError(): ApiError {
  return new ApiError(409, 'EMAIL_TAKEN', ACCOUNT_MESSAGES.emailTaken, { fields: { email: ACCOUNT_MESSAGES.emailTaken } });
}

export function isEmailTaken(err: unknown): boolean {
  return err instanceof ApiError && err.code === 'EMAIL_TAKEN';
}


export async function createUser(
  deps: { models: Pick<Models, 'User'> },
  input: NewUser,
  options: { transaction?: Transaction; passwordHash?: string } = {},
): Promise<User> {
  const email = normalizeEmail(input.email);
  const passwordHash = options.passwordHash ?? (await hashPassword(input.password));
  try {
    return await deps.models.User.create(
      {
        email,
        passwordHash,
        name: input.name ?? null,
        role: input.role ?? 'user',
        userType: input.userType ?? null,
        credits: input.credits ?? 0,
        emailVerifiedAt: input.emailVerifiedAt ?? null,
      },
      { transaction: options.transaction },
    );
  } catch (err) {
    if (err instanceof UniqueConstraintError) throw emailTakenError();
    throw err;
  }
}

/** Sets a new password; the model hook raises tokenVersion, ending older sessions. */
export async function setPassword(user: User, newPassword: string, options: { transaction?: Transaction } = {}): Promise<User> {
  user.passwordHash = await hashPassword(newPassword);
  return user.save({ transaction: options.transaction });
}
