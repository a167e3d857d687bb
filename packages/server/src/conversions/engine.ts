/**
 * The contract between the server and the engine running in a worker thread: the messages
 * both sides exchange, and how a ConverterError crosses the thread boundary.
 */
import { ConverterError, CONVERTER_ERRORS, type ApksReport, type ConversionReport, type ConversionStage, type ConverterErrorCode, type DeviceSpec, type InputFile, type SignOptions, type buildApks, type convertApk } from '@aabify/converter';
import type { ConversionOptions } from '@aabify/shared';

/**
 * The nice value of an engine thread (Linux only: there a thread's nice value is its own, set by
 * setpriority on the calling thread; elsewhere it would lower the whole process). When
 * conversions keep every core busy, the kernel still serves the process's main thread first —
 * HTTP answers, events, the queue — and the engine gets the rest; idle cores still go to it.
 */
export const ENGINE_THREAD_NICE = 10;

/** A module the worker can run instead of @aabify/converter (tests: a slowed-down engine). */
export interface EngineModule {
  convertApk: typeof convertApk;
  /** An override without it builds APKs with @aabify/converter's. */
  buildApks?: typeof buildApks;
  /** Receives StartOptions.conversions.engine.config once per worker. */
  configure?(config: unknown): void;
}

export interface EngineSelection {
  /** URL or path of a module exporting convertApk; default @aabify/converter. */
  module?: string;
  config?: unknown;
}

export interface EngineTask {
  /** The uploaded APK, or every file of a set upload but its OBBs (with the names they were uploaded as). */
  input: string | InputFile[];
  /** OBB files of a set upload. */
  obb?: InputFile[];
  output: string;
  /** The conversion's options with the versionCode settled (the runner turns "play" into a number or drops it). */
  options: Omit<ConversionOptions, 'versionCode'> & { versionCode?: number };
  /** The account's upload key when `options.sign` (keystores/service.ts), decrypted for this run only. */
  sign?: SignOptions;
}

interface ApksTaskFiles {
  /** The AAB. */
  input: string;
  output: string;
  /** The account's upload key, decrypted for this run only; without it the engine's test key. */
  sign?: SignOptions;
}

/**
 * APKs of a bundle (the engine's buildApks): its universal APK — a finished conversion's AAB tried
 * on a phone, or an uploaded AAB converted to an APK — or the device set (`.apks`) one device
 * installs (an AAB → APK conversion that asked for a device profile's set).
 */
export type ApksTask = (ApksTaskFiles & { kind: 'universal-apk' }) | (ApksTaskFiles & { kind: 'device-set'; deviceSpec: DeviceSpec });

/** What a worker runs: a conversion (APK → AAB) or APKs of a bundle. */
export type WorkerTask = EngineTask | ApksTask;

export const isApksTask = (task: WorkerTask): task is ApksTask => 'kind' in task && (task.kind === 'universal-apk' || task.kind === 'device-set');

export interface EngineLogEntry {
  level: 'info' | 'warn' | 'error';
  step: string;
  message: string;
}

export type ToWorker = { type: 'run'; taskId: number; task: WorkerTask } | { type: 'abort'; taskId: number };

export interface SerializedError {
  converter: boolean;
  code: string;
  message: string;
  detail?: string;
}

/** A worker's own V8 heap and the memory its objects hold outside it, in bytes (sent after each task). */
export interface WorkerMemory {
  heapTotal: number;
  heapUsed: number;
  external: number;
}

export type FromWorker =
  | { type: 'ready' }
  | ({ type: 'memory' } & WorkerMemory)
  | { type: 'progress'; taskId: number; stage: ConversionStage; fraction: number }
  | { type: 'log'; taskId: number; entry: EngineLogEntry }
  | { type: 'done'; taskId: number; report: ConversionReport | ApksReport }
  | { type: 'failed'; taskId: number; error: SerializedError };

function isConverterCode(code: string): code is ConverterErrorCode {
  return Object.prototype.hasOwnProperty.call(CONVERTER_ERRORS, code);
}

export function serializeError(err: unknown): SerializedError {
  if (err instanceof ConverterError) return { converter: true, code: err.code, message: err.message, detail: err.detail };
  // A ConverterError from another copy of the module (an engine override) still has its shape.
  if (err instanceof Error && err.name === 'ConverterError' && 'code' in err && typeof err.code === 'string' && isConverterCode(err.code)) {
    const detail = 'detail' in err && typeof err.detail === 'string' ? err.detail : undefined;
    return { converter: true, code: err.code, message: err.message, detail };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { converter: false, code: 'INTERNAL', message, detail: err instanceof Error ? err.stack : undefined };
}

/** The error the pool rejects with: a ConverterError for engine failures, an Error otherwise. */
export function deserializeError(e: SerializedError): Error {
  if (e.converter && isConverterCode(e.code)) return new ConverterError(e.code, e.detail);
  const err = new Error(e.message);
  err.stack = e.detail ?? err.stack;
  return err;
}
