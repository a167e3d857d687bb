/**
 * The request schemas of conversions (conversions.ts): a conversion's options and the history
 * query. Kept apart from the statuses, limits and messages, which the CLI imports at start
 * without building schemas (index.ts). No Node-only code: the dashboard imports this too.
 */
import { array, boolean, mixed, number, object, string, ValidationError, type InferType } from 'yup';
import { ASSET_DELIVERIES, CONVERSION_LIMITS, CONVERSION_MESSAGES, CONVERSION_STATUSES, HISTORY_SORT_FIELDS } from './conversions.js';
import { APKS_OUTPUTS } from './apksOutput.js';

/** `versionCode: "play"`: one above the highest versionCode the app has on Google Play (the account's Play key reads it). */
export const VERSION_CODE_FROM_PLAY = 'play';

/** Longer than this is no device profile's id. */
const DEVICE_PROFILE_ID_MAX = 100;

const versionCodeMessages = {
  type: 'versionCode deve ser um número inteiro ou "play" (uma acima da do Google Play)',
  min: 'versionCode deve ser maior que zero',
  max: `versionCode deve ser no máximo ${CONVERSION_LIMITS.versionCodeMax}`,
} as const;

/**
 * `options` (JSON) of POST /conversion/convert: which splits Google Play may make and a
 * version override. Unknown keys are a 400 (docs/decisions.md "Conversions"), at every level.
 */
export const conversionOptionsSchema = object({
  splits: object({
    abi: boolean().strict().optional(),
    density: boolean().strict().optional(),
    language: boolean().strict().optional(),
  })
    .noUnknown(({ unknown }) => CONVERSION_MESSAGES.unknownOption(`splits.${String(unknown)}`))
    .strict()
    .optional()
    .default(undefined),
  /** A number, or "play": one above the highest on Google Play (needs the account's Play key). */
  versionCode: mixed<number | typeof VERSION_CODE_FROM_PLAY>((v): v is number | typeof VERSION_CODE_FROM_PLAY => v === VERSION_CODE_FROM_PLAY || (typeof v === 'number' && Number.isInteger(v)))
    .typeError(versionCodeMessages.type)
    .test('min', versionCodeMessages.min, (v) => typeof v !== 'number' || v >= 1)
    .test('max', versionCodeMessages.max, (v) => typeof v !== 'number' || v <= CONVERSION_LIMITS.versionCodeMax)
    .optional(),
  versionName: string()
    .strict()
    .trim('versionName não pode ter espaços nas pontas')
    .min(1, 'versionName não pode ser vazio')
    .max(CONVERSION_LIMITS.versionNameMax, `versionName deve ter no máximo ${CONVERSION_LIMITS.versionNameMax} caracteres`)
    .optional(),
  /** Sign the AAB with the upload keystore stored in the account (PUT /api/account/keystore). */
  sign: boolean().strict().optional(),
  /** How Play delivers the asset packs made from OBB files (docs/split-inputs.md). */
  assetDelivery: string().strict().oneOf([...ASSET_DELIVERIES], CONVERSION_MESSAGES.assetDelivery).optional(),
  /** Base assets moved into asset packs by glob: [{ name, glob, delivery? }]. */
  assetPacks: array(
    object({
      name: string().strict().required(CONVERSION_MESSAGES.assetPackName).matches(/^[A-Za-z][A-Za-z0-9_]{0,49}$/, CONVERSION_MESSAGES.assetPackName),
      glob: string().strict().required(CONVERSION_MESSAGES.assetPackGlob).min(1, CONVERSION_MESSAGES.assetPackGlob).max(CONVERSION_LIMITS.assetPackGlobMaxLength, CONVERSION_MESSAGES.assetPackGlob),
      delivery: string().strict().oneOf([...ASSET_DELIVERIES], CONVERSION_MESSAGES.assetDelivery).optional(),
    })
      .noUnknown(({ unknown }) => CONVERSION_MESSAGES.unknownOption(`assetPacks[].${String(unknown)}`))
      .strict(),
  )
    .strict()
    .max(CONVERSION_LIMITS.assetPacksMax, CONVERSION_MESSAGES.assetPacksTooMany)
    .optional()
    .default(undefined),
  /** AAB → APK: the universal APK (default) or the device set of one device profile (`device`). */
  output: string().strict().oneOf([...APKS_OUTPUTS], CONVERSION_MESSAGES.apksOutput).optional(),
  /** With output "device-set": the device profile's id (GET /conversion/device-profiles; checked by checkOptionsOfAab). */
  device: string().strict().max(DEVICE_PROFILE_ID_MAX, CONVERSION_MESSAGES.unknownDeviceProfile([])).optional(),
})
  .noUnknown(({ unknown }) => CONVERSION_MESSAGES.unknownOption(String(unknown)))
  .strict();
export type ConversionOptions = InferType<typeof conversionOptionsSchema>;

/** A refusal's `code` when it has its own (else INVALID_OPTIONS). */
export type ParsedOptions = { ok: true; options: ConversionOptions } | { ok: false; message: string; fields: Record<string, string>; code?: string };

/** Parses the `options` text of a multipart request (absent or blank = no options). */
export function parseConversionOptions(raw: string | undefined): ParsedOptions {
  if (raw === undefined || raw.trim() === '') return { ok: true, options: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, message: CONVERSION_MESSAGES.optionsNotJson, fields: { options: CONVERSION_MESSAGES.optionsNotJson } };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: CONVERSION_MESSAGES.optionsNotJson, fields: { options: CONVERSION_MESSAGES.optionsNotJson } };
  }
  try {
    const options = conversionOptionsSchema.validateSync(value, { abortEarly: false });
    return { ok: true, options: stripUndefined(options) };
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    const fields: Record<string, string> = {};
    for (const e of err.inner.length ? err.inner : [err]) {
      const path = e.path ? `options.${e.path}` : 'options';
      fields[path] ??= e.errors[0] ?? CONVERSION_MESSAGES.optionsInvalid;
    }
    return { ok: false, message: Object.values(fields)[0] ?? CONVERSION_MESSAGES.optionsInvalid, fields };
  }
}

function stripUndefined(o: ConversionOptions): ConversionOptions {
  const out: ConversionOptions = {};
  if (o.splits) {
    const splits: NonNullable<ConversionOptions['splits']> = {};
    for (const k of ['abi', 'density', 'language'] as const) if (o.splits[k] !== undefined) splits[k] = o.splits[k];
    out.splits = splits;
  }
  if (o.versionCode !== undefined) out.versionCode = o.versionCode;
  if (o.versionName !== undefined) out.versionName = o.versionName;
  if (o.sign !== undefined) out.sign = o.sign;
  if (o.assetDelivery !== undefined) out.assetDelivery = o.assetDelivery;
  if (o.output !== undefined) out.output = o.output;
  if (o.device !== undefined) out.device = o.device;
  if (o.assetPacks !== undefined) out.assetPacks = o.assetPacks.map((p) => ({ name: p.name, glob: p.glob, ...(p.delivery !== undefined ? { delivery: p.delivery } : {}) }));
  return out;
}

export const historyQuerySchema = object({
  page: number().typeError('page deve ser um número').integer('page deve ser inteiro').min(1, 'page deve ser pelo menos 1').default(CONVERSION_LIMITS.historyDefaultPage),
  limit: number()
    .typeError('limit deve ser um número')
    .integer('limit deve ser inteiro')
    .min(1, 'limit deve ser pelo menos 1')
    .max(CONVERSION_LIMITS.historyMaxLimit, `limit deve ser no máximo ${CONVERSION_LIMITS.historyMaxLimit}`)
    .default(CONVERSION_LIMITS.historyDefaultLimit),
  search: string().trim().max(CONVERSION_LIMITS.searchMaxLength).optional(),
  status: string()
    .optional()
    .test('status', 'Status inválido', (v) => v === undefined || v === '' || v === 'all' || v.split(',').every((s) => (CONVERSION_STATUSES as readonly string[]).includes(s.trim()))),
  sortBy: string().oneOf([...HISTORY_SORT_FIELDS], 'sortBy inválido').default('createdAt'),
  sortOrder: string()
    .transform((v: string) => v.toLowerCase())
    .oneOf(['asc', 'desc'], 'sortOrder deve ser asc ou desc')
    .default('desc'),
});
export type HistoryQuery = InferType<typeof historyQuerySchema>;

/** The options an AAB → APK conversion takes; the others shape an AAB and would be silently ignored. */
const AAB_OPTIONS: readonly string[] = ['sign', 'output', 'device'];

/**
 * The options of an AAB → APK conversion: `sign` (the account's upload key, else the test key) and
 * what to build — the universal APK, or with `output: "device-set"` the set of one of
 * `deviceProfiles` (the engine's profile ids, which the server passes). Any other option is
 * refused (INVALID_OPTIONS); a device set without a known profile is UNKNOWN_DEVICE_PROFILE.
 */
export function checkOptionsOfAab(options: ConversionOptions, deviceProfiles: readonly string[]): ParsedOptions {
  const extra = Object.keys(options).filter((k) => !AAB_OPTIONS.includes(k));
  if (extra.length > 0) {
    const message = CONVERSION_MESSAGES.optionNotForAab(extra[0]!);
    return { ok: false, message, fields: Object.fromEntries(extra.map((k) => [`options.${k}`, CONVERSION_MESSAGES.optionNotForAab(k)])) };
  }
  if (options.output === 'device-set' && (options.device === undefined || !deviceProfiles.includes(options.device))) {
    const message = CONVERSION_MESSAGES.unknownDeviceProfile(deviceProfiles);
    return { ok: false, code: 'UNKNOWN_DEVICE_PROFILE', message, fields: { 'options.device': message } };
  }
  if (options.output !== 'device-set' && options.device !== undefined) {
    return { ok: false, message: CONVERSION_MESSAGES.deviceNeedsDeviceSet, fields: { 'options.device': CONVERSION_MESSAGES.deviceNeedsDeviceSet } };
  }
  return { ok: true, options };
}

/** The options of an APK (or split set) → AAB conversion: what to build from an AAB has no place there (DEVICE_SET_NOT_FOR_APK). */
export function checkOptionsOfApk(options: ConversionOptions): ParsedOptions {
  const sent = (['output', 'device'] as const).filter((k) => options[k] !== undefined);
  if (sent.length === 0) return { ok: true, options };
  const message = CONVERSION_MESSAGES.deviceSetNotForApk;
  return { ok: false, code: 'DEVICE_SET_NOT_FOR_APK', message, fields: Object.fromEntries(sent.map((k) => [`options.${k}`, message])) };
}
