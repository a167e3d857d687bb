/**
 * The app's versionCodes on Google Play, read before an APK → AAB conversion runs when the
 * account has a Google Play key (Conta › Google Play): the checklist compares the bundle's
 * versionCode with the highest one Play has (a blocker when not greater), and the option
 * `versionCode: "play"` converts with the next one. An edit is opened, read and deleted through
 * the engine's Play client (nothing changes on Play), against GOOGLE_PLAY_API_URL when set.
 *
 * Play not answering, or refusing the key, is a warning in the checklist, never a failed
 * conversion. A key that cannot see the package (the app is not in its Play Console, or the
 * service account has no access to it) is a key for other apps: the conversion goes on as
 * without one.
 */
import { inspectApk, type InputFile } from '@aabify/converter';
import { highestVersionCodeOnPlay, isPlayError } from '@aabify/converter/play';
import { PLAY_ERROR_MESSAGES, type PlayVersionCodes } from '@aabify/shared';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Models } from '../models/index.js';
import type { ServerSecrets } from '../secrets.js';
import { playEndpoints, playKeyFor } from '../play/credentials.js';

export interface PlayVersionCodeDeps {
  models: Pick<Models, 'PlayCredential'>;
  secrets: ServerSecrets;
  config: Pick<Config, 'googlePlay'>;
  logger: Logger;
}

/** How long the service waits for Play before converting without its answer. */
export const PLAY_LOOKUP_TIMEOUT_MS = 30_000;

/** Codes saying the key is not for this app: no comparison, no warning. */
const NOT_THIS_KEYS_APP = new Set(['PLAY_APP_NOT_FOUND', 'PLAY_PERMISSION_DENIED']);

export interface PlayLookup {
  packageName: string;
  versionCodes: PlayVersionCodes;
}

/**
 * What Play holds of the app in `input` (the APK or the files of a set, as the engine gets them),
 * or undefined when the account has no Play key, the key is not for this app, or the input names
 * no package (the engine then fails with its own error).
 */
export async function playVersionCodesFor(
  deps: PlayVersionCodeDeps,
  userId: string,
  input: InputFile | InputFile[],
  obb: InputFile[],
  signal: AbortSignal,
): Promise<PlayLookup | undefined> {
  const key = await playKeyFor(deps, userId).catch((err: unknown) => {
    deps.logger.warn({ err, userId }, 'play key not readable; converting without Play');
    return null;
  });
  if (!key) return undefined;
  let packageName: string;
  try {
    packageName = (await inspectApk(input, obb.length > 0 ? { obb } : {})).packageName;
  } catch {
    return undefined;
  }
  const timeout = AbortSignal.timeout(PLAY_LOOKUP_TIMEOUT_MS);
  try {
    const highest = await highestVersionCodeOnPlay(key, packageName, playEndpoints(deps), AbortSignal.any([signal, timeout]));
    return { packageName, versionCodes: { reached: true, highestVersionCode: highest ?? null } };
  } catch (err) {
    if (signal.aborted) throw err;
    if (isPlayError(err)) {
      if (NOT_THIS_KEYS_APP.has(err.code)) return undefined;
      deps.logger.info({ userId, packageName, code: err.code, google: err.detail }, 'play versionCodes not read');
      return { packageName, versionCodes: { reached: false, code: err.code, message: err.message } };
    }
    deps.logger.warn({ err, userId, packageName }, 'play versionCodes not read');
    return { packageName, versionCodes: { reached: false, code: 'PLAY_UNAVAILABLE', message: PLAY_ERROR_MESSAGES.PLAY_UNAVAILABLE } };
  }
}
