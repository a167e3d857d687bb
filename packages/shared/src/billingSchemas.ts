/**
 * PUT /api/account/billing: the billing details (billing.ts), one pt-BR message per field. The
 * same schema validates the server's request and the dashboard's form; what it outputs is the
 * stored shape (document without punctuation, CEP as 00000-000, blank complement as null).
 */
import { mixed, object, string, type InferType } from 'yup';
import { HIDDEN_CHARACTERS } from './hiddenCharacters.js';
import { normalizeEmail } from './accounts.js';
import {
  BILLING_LIMITS as L,
  BILLING_MESSAGES as M,
  BRAZILIAN_STATES,
  compactTaxId,
  normalizeCep,
  taxIdKind,
  type BrazilianState,
} from './billing.js';

/** Trimmed, hidden characters (controls, bidi marks) turned into spaces; non-strings pass to the type check. */
const clean = (v: unknown) => (typeof v === 'string' ? v.replace(HIDDEN_CHARACTERS, ' ').replace(/\s+/g, ' ').trim() : v);

const line = (max: number, required: string) => string().transform(clean).required(required).max(max, M.tooLong(max));

export const billingDetailsSchema = object({
  document: string()
    .transform((v: unknown) => (typeof v === 'string' ? compactTaxId(v) : v))
    .required(M.documentRequired)
    .test('tax-id', M.documentInvalid, (v) => v === undefined || taxIdKind(v) !== null),
  name: line(L.nameMax, M.nameRequired),
  email: string()
    .transform((v: unknown) => (typeof v === 'string' ? normalizeEmail(v) : v))
    .required(M.emailRequired)
    .max(L.emailMax, M.emailInvalid)
    .email(M.emailInvalid),
  cep: string()
    .transform((v: unknown) => (typeof v === 'string' ? (v.trim() === '' ? '' : (normalizeCep(v) ?? 'invalid')) : v))
    .required(M.cepRequired)
    .matches(/^\d{5}-\d{3}$/, M.cepInvalid),
  street: line(L.streetMax, M.streetRequired),
  number: line(L.numberMax, M.numberRequired),
  complement: string()
    .transform((v: unknown) => {
      const c = clean(v);
      return c === '' ? null : c;
    })
    .nullable()
    .defined()
    .default(null)
    .max(L.complementMax, M.tooLong(L.complementMax)),
  district: line(L.districtMax, M.districtRequired),
  city: line(L.cityMax, M.cityRequired),
  cityCode: string()
    .transform((v: unknown) => {
      const c = clean(v);
      return c === '' ? null : c;
    })
    .nullable()
    .defined()
    .default(null)
    .matches(/^\d{7}$/, M.cityCodeInvalid),
  state: mixed<BrazilianState>()
    .transform((v: unknown) => (typeof v === 'string' ? v.trim().toUpperCase() : v))
    .required(M.stateInvalid)
    .oneOf([...BRAZILIAN_STATES], M.stateInvalid),
});
export type BillingDetailsRequest = InferType<typeof billingDetailsSchema>;
