/**
 * Exit codes of every command, defined once:
 *   0 ok · 1 conversion or validation failed · 2 usage error · 3 authentication ·
 *   4 no credits or plan · 5 rate limited · 6 network or server error
 */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_AUTH = 3;
export const EXIT_PAYMENT = 4;
export const EXIT_RATE_LIMITED = 5;
export const EXIT_NETWORK = 6;

export type ExitCode =
  | typeof EXIT_OK
  | typeof EXIT_FAILED
  | typeof EXIT_USAGE
  | typeof EXIT_AUTH
  | typeof EXIT_PAYMENT
  | typeof EXIT_RATE_LIMITED
  | typeof EXIT_NETWORK;
