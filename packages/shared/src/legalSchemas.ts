/** Request schemas of the legal documents (legal.ts): POST /legal/accept, POST /admin/legal/:kind. */
import { number, object, string, type InferType } from 'yup';
import { LEGAL_LIMITS, LEGAL_MESSAGES as M } from './legal.js';

const version = () => number().typeError(M.versionInvalid).strict().integer(M.versionInvalid).min(1, M.versionInvalid).required(M.versionInvalid);

/** POST /legal/accept: the versions the user read (an older one answers 409 LEGAL_VERSION_OUTDATED). */
export const acceptLegalSchema = object({
  termsVersion: version(),
  privacyVersion: version(),
});
export type AcceptLegalRequest = InferType<typeof acceptLegalSchema>;

/** POST /admin/legal/:kind: a new version's text. */
export const publishLegalSchema = object({
  body: string()
    .transform((v: unknown) => (typeof v === 'string' ? v.replace(/\r\n?/g, '\n').trim() : v))
    .required(M.bodyRequired)
    .min(LEGAL_LIMITS.bodyMinLength, M.bodyTooShort)
    .max(LEGAL_LIMITS.bodyMaxLength, M.bodyTooLong),
});
export type PublishLegalRequest = InferType<typeof publishLegalSchema>;
