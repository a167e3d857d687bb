import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config.js';

export type { Logger };

/** Secrets never reach the logs: these paths are censored wherever they appear. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.password',
  '*.token',
  '*.accessToken',
  '*.secret',
  '*.secretAccessKey',
  '*.webhookSecret',
  '*.keystorePassword',
];

/** The process's logger (stdout unless a destination is given: benchmarks write to /dev/null). */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACT, censor: '[oculto]' }, base: { pid: process.pid } }, destination);
}
