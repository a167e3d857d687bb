/** DELETE /account: the password, and the two-factor code when the account uses it. */
import { object, string, type InferType } from 'yup';
import { PRIVACY_MESSAGES as M } from './privacy.js';

export const deleteAccountSchema = object({
  password: string().required(M.passwordRequired).max(1024, M.wrongPassword),
  code: string().trim().max(64, M.codeInvalid).optional(),
});
export type DeleteAccountRequest = InferType<typeof deleteAccountSchema>;
