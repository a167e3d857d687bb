/**
 * A user agent as a person recognises it: "Chrome no Windows", "aabify CLI 0.1.0", "curl".
 * Only the well-known browsers and systems are named; anything else shows its first product
 * token, cut short. Never trusted for anything but display: clients choose their user agent.
 */

const BROWSERS: ReadonlyArray<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChrome\/|\bCriOS\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

const SYSTEMS: ReadonlyArray<[RegExp, string]> = [
  [/\bAndroid\b/, 'Android'],
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bWindows\b/, 'Windows'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const MAX_OTHER = 40;

export function describeUserAgent(userAgent: string | null | undefined): string | null {
  const ua = userAgent?.trim();
  if (!ua) return null;
  const cli = /^aabify-cli\/([\w.-]{1,20})/.exec(ua);
  if (cli) return `aabify CLI ${cli[1]}`;
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1];
  if (browser && system) return `${browser} no ${system}`;
  if (browser) return browser;
  const product = /^[^\s/]+/.exec(ua)?.[0] ?? ua;
  const name = product === 'Mozilla' && system ? `Navegador no ${system}` : product;
  return name.length > MAX_OTHER ? `${name.slice(0, MAX_OTHER)}…` : name;
}
