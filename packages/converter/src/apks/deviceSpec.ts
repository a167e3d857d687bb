/**
 * A device as bundletool's `--device-spec` JSON describes it (and `bundletool get-device-spec`
 * writes it): ABIs in order of preference, installed locales (BCP-47), screen density in dpi,
 * SDK level, optionally features, GL extensions, codename, tier, groups and country set. Parsed
 * from untrusted JSON with bounds on every list; what bundletool refuses is refused here too.
 */
import { ConverterError } from '../errors.js';
import type { DeviceProfile } from '../size/devices.js';

export interface DeviceSpec {
  supportedAbis: string[];
  supportedLocales: string[];
  screenDensity: number;
  sdkVersion: number;
  deviceFeatures?: string[];
  glExtensions?: string[];
  codename?: string;
  deviceTier?: number;
  deviceGroups?: string[];
  countrySet?: string;
}

const MAX_LIST = 512;
const MAX_TEXT = 256;
/** JSON larger than this is not a device spec. */
export const MAX_DEVICE_SPEC_BYTES = 64 * 1024;

function bad(detail: string): never {
  throw new ConverterError('INVALID_DEVICE_SPEC', detail);
}

function strings(v: unknown, field: string): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.length > MAX_LIST || !v.every((s) => typeof s === 'string' && s.length <= MAX_TEXT)) {
    bad(`${field} deve ser uma lista de até ${MAX_LIST} textos`);
  }
  return v as string[];
}

function integer(v: unknown, field: string, max: number): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max) bad(`${field} deve ser um inteiro entre 0 e ${max}`);
  return v;
}

/** Checks a device spec given as an object (from JSON or from the caller). */
export function checkDeviceSpec(raw: unknown): DeviceSpec {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) bad('a especificação deve ser um objeto JSON');
  const o = raw as Record<string, unknown>;
  const sdkVersion = integer(o.sdkVersion, 'sdkVersion', 1000) ?? 0;
  const screenDensity = integer(o.screenDensity, 'screenDensity', 0xffff) ?? 0;
  if (sdkVersion === 0) bad('sdkVersion deve ser um número maior que zero');
  if (screenDensity === 0) bad('screenDensity deve ser um número maior que zero');
  const supportedAbis = strings(o.supportedAbis, 'supportedAbis') ?? [];
  const supportedLocales = strings(o.supportedLocales, 'supportedLocales') ?? [];
  if (supportedAbis.length === 0) bad('supportedAbis está vazia');
  if (supportedLocales.length === 0) bad('supportedLocales está vazia');
  const spec: DeviceSpec = { supportedAbis, supportedLocales, screenDensity, sdkVersion };
  const features = strings(o.deviceFeatures, 'deviceFeatures');
  if (features) spec.deviceFeatures = features;
  const gl = strings(o.glExtensions, 'glExtensions');
  if (gl) spec.glExtensions = gl;
  if (o.codename !== undefined) {
    if (typeof o.codename !== 'string' || o.codename.length > MAX_TEXT) bad('codename deve ser um texto');
    spec.codename = o.codename;
  }
  const tier = integer(o.deviceTier, 'deviceTier', 1000);
  if (tier !== undefined) spec.deviceTier = tier;
  const groups = strings(o.deviceGroups, 'deviceGroups');
  if (groups) spec.deviceGroups = groups;
  if (o.countrySet !== undefined) {
    if (typeof o.countrySet !== 'string' || o.countrySet.length > MAX_TEXT) bad('countrySet deve ser um texto');
    spec.countrySet = o.countrySet;
  }
  return spec;
}

/** Parses a device spec JSON text (bundletool's format). */
export function parseDeviceSpec(text: string): DeviceSpec {
  if (text.length > MAX_DEVICE_SPEC_BYTES) bad(`maior que ${MAX_DEVICE_SPEC_BYTES} bytes`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    bad(`JSON inválido: ${(e as Error).message}`);
  }
  return checkDeviceSpec(raw);
}

/** The device spec of one of the download-size device profiles (size/devices.ts). */
export function deviceSpecOfProfile(profile: DeviceProfile): DeviceSpec {
  return { supportedAbis: [...profile.abis], supportedLocales: [profile.locale], screenDensity: profile.density, sdkVersion: profile.sdk };
}
