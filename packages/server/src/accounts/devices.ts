/**
 * A person's name for the device behind a user agent, for "Sessões ativas" and the sign-in
 * e-mail: 'Chrome no Windows', 'aabify CLI', 'Firefox no Android'. A rough reading of the
 * well-known tokens, never a security decision (the header is whatever the client sends).
 */
import { createHash } from 'node:crypto';
import { HIDDEN_CHARACTERS, SECURITY_MESSAGES } from '@aabify/shared';

/** User agents are cut to this before being stored. */
export const USER_AGENT_MAX_LENGTH = 512;

// Order matters: Edge and Opera also say Chrome; Chrome also says Safari.
const BROWSERS: Array<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  // HeadlessChrome/ too (no word boundary before Chrome).
  [/Chrom(?:e|ium)\/|\bCriOS\//, 'Chrome'],
  [/\bSafari\//, 'Safari'],
];
const SYSTEMS: Array<[RegExp, string]> = [
  [/\bAndroid\b/, 'Android'],
  [/\biPhone\b|\biPad\b|\biPod\b/, 'iOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bLinux\b/, 'Linux'],
];

export function describeDevice(userAgent: string | null | undefined): string {
  const ua = userAgent?.trim();
  if (!ua) return SECURITY_MESSAGES.unknownDevice;
  if (/^aabify-cli\//.test(ua)) return 'aabify CLI';
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1];
  if (browser && system) return `${browser} no ${system}`;
  if (browser || system) return (browser ?? system)!;
  const product = /^([A-Za-z][\w.-]{0,40})\//.exec(ua)?.[1];
  return product ?? SECURITY_MESSAGES.unknownDevice;
}

/** A stable key of a device for "seen before?" (the exact user agent, hashed). */
export function deviceKey(userAgent: string | null | undefined): string {
  return createHash('sha256').update(userAgent?.trim() ?? '').digest('hex').slice(0, 32);
}

/** The header as stored: trimmed, cut, control characters out; null when empty. */
export function storedUserAgent(header: string | string[] | undefined): string | null {
  const raw = Array.isArray(header) ? header[0] : header;
  const clean = raw?.replace(HIDDEN_CHARACTERS, ' ').trim().slice(0, USER_AGENT_MAX_LENGTH);
  return clean ? clean : null;
}
