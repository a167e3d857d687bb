/**
 * Exit codes of every command, defined once:
 *   0 ok · 1 conversion or validation failed · 2 usage error · 3 authentication ·
 *   4 no credits or plan · 5 rate limited · 6 network or server error ·
 *   7 Google Play refused the release · 8 Google Play credentials (key invalid or refused, no permission) ·
 *   9 the pre-publication checklist failed `--fail-on` (a blocker, or with `--fail-on warning` a warning;
 *     the AAB is saved all the same) ·
 *   124 gave up waiting (`--timeout`; the conversion goes on on the server), as coreutils' `timeout`
 */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_AUTH = 3;
export const EXIT_PAYMENT = 4;
export const EXIT_RATE_LIMITED = 5;
export const EXIT_NETWORK = 6;
export const EXIT_PLAY_REFUSED = 7;
export const EXIT_PLAY_CREDENTIALS = 8;
export const EXIT_CHECKLIST = 9;
export const EXIT_TIMEOUT = 124;

export type ExitCode =
  | typeof EXIT_OK
  | typeof EXIT_FAILED
  | typeof EXIT_USAGE
  | typeof EXIT_AUTH
  | typeof EXIT_PAYMENT
  | typeof EXIT_RATE_LIMITED
  | typeof EXIT_NETWORK
  | typeof EXIT_PLAY_REFUSED
  | typeof EXIT_PLAY_CREDENTIALS
  | typeof EXIT_CHECKLIST
  | typeof EXIT_TIMEOUT;

/**
 * The exit code of a Google Play refusal (docs/play.md): the account or key is the problem (8),
 * the release is (7), Google's quota (5, try later) or Google did not answer (6).
 */
export function playExitCode(code: string): ExitCode | undefined {
  switch (code) {
    case 'PLAY_KEY_INVALID':
    case 'PLAY_AUTH_FAILED':
    case 'PLAY_PERMISSION_DENIED':
    case 'PLAY_CREDENTIALS_REQUIRED':
    case 'PLAY_CREDENTIALS_NOT_FOUND':
      return EXIT_PLAY_CREDENTIALS;
    case 'PLAY_APP_NOT_FOUND':
    case 'PLAY_VERSION_CODE_USED':
    case 'PLAY_PACKAGE_MISMATCH':
    case 'PLAY_UPLOAD_KEY_MISMATCH':
    case 'PLAY_TRACK_NOT_FOUND':
    case 'PLAY_DRAFT_APP_ONLY':
    case 'PLAY_REJECTED':
      return EXIT_PLAY_REFUSED;
    case 'PLAY_QUOTA_EXCEEDED':
      return EXIT_RATE_LIMITED;
    case 'PLAY_UNAVAILABLE':
      return EXIT_NETWORK;
    default:
      return undefined;
  }
}
