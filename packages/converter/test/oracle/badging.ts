/**
 * Debian's `aapt dump badging` (aapt1, an implementation independent of aapt2 and bundletool):
 * what the platform's own parser reads from the universal APK's manifest. The round trip checks
 * the engine's report against it.
 */
import { run } from './tools.js';

export interface Badging {
  packageName?: string;
  versionCode?: number;
  versionName?: string;
  minSdk?: number;
  targetSdk?: number;
}

const quoted = (text: string, key: string): string | undefined => new RegExp(`(?:^|\\s)${key}='([^']*)'`).exec(text)?.[1];

function integer(value: string | undefined): number | undefined {
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

export function parseBadging(text: string): Badging {
  const pkg = /^package: (.*)$/m.exec(text)?.[1] ?? '';
  return {
    packageName: quoted(pkg, 'name'),
    versionCode: integer(quoted(pkg, 'versionCode')),
    versionName: quoted(pkg, 'versionName'),
    minSdk: integer(/^sdkVersion:'([^']*)'/m.exec(text)?.[1]),
    targetSdk: integer(/^targetSdkVersion:'([^']*)'/m.exec(text)?.[1]),
  };
}

export async function dumpBadging(aapt: string, apk: string): Promise<Badging> {
  const { stdout } = await run(aapt, ['dump', 'badging', apk]);
  return parseBadging(stdout.toString('utf8'));
}
