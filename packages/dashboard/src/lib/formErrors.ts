/**
 * A server refusal shown where it belongs: on the field it concerns (the answer's `fields`,
 * or the field a known code is about), else as a toast. Every form uses this one rule.
 */
import type { FormikHelpers } from 'formik';
import { isApiRequestError } from '../api/client';
import { toast } from '../stores/toasts';

/** Codes whose message is about one field although the answer names none. */
export const FIELD_OF_CODE: Record<string, string> = {
  INVALID_CREDENTIALS: 'password',
  ACCOUNT_DISABLED: 'email',
  EMAIL_TAKEN: 'email',
  CURRENT_PASSWORD_WRONG: 'currentPassword',
};

export function fieldErrorsOf(e: unknown, fieldNames: readonly string[]): Record<string, string> {
  if (!isApiRequestError(e)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(e.fields ?? {})) if (fieldNames.includes(k)) out[k] = v;
  const byCode = e.code ? FIELD_OF_CODE[e.code] : undefined;
  if (Object.keys(out).length === 0 && byCode && fieldNames.includes(byCode) && e.serverMessage) out[byCode] = e.serverMessage;
  return out;
}

/** Puts the server's errors on the form's fields; toasts what no field holds. */
export function showServerErrors<V extends object>(e: unknown, helpers: Pick<FormikHelpers<V>, 'setErrors' | 'setTouched'>, fieldNames: readonly (keyof V & string)[], fallback: string): void {
  const fields = fieldErrorsOf(e, fieldNames);
  if (Object.keys(fields).length > 0) {
    helpers.setErrors(fields as never);
    void helpers.setTouched(Object.fromEntries(Object.keys(fields).map((k) => [k, true])) as never, false);
    return;
  }
  toast.error(isApiRequestError(e) && e.serverMessage ? e.serverMessage : fallback);
}
