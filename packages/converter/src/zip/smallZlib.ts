/**
 * Raw deflate (level 6) and inflate of small inputs, synchronously: byte for byte what
 * `deflateRawSync(data, { level: 6 })` and `inflateRawSync(data)` give (a fresh zlib context
 * each time, the same parameters), without what Node wraps around them. Each of those calls
 * builds a whole stream object (Transform, Duplex, their state) and a 16 KiB output buffer; a
 * 1 MB APK deflates ~400 small entries (its generated XML for the bundle, its stored images for
 * the estimate) and inflates ~200 (its XML), and that wrapping was about half of their ~20 ms on
 * the main thread. Here the zlib handle is driven directly, as Node's own sync functions drive
 * it: deflating into one reused output buffer, inflating straight into the result.
 *
 * The handle is Node's internal zlib binding (reached through a stream's `_handle`, as the
 * verifier thread reaches its inflater's): where it is missing or behaves unexpectedly, this
 * falls back to the `*Sync` functions, so the result is the same either way. An input zlib
 * refuses, or that inflates to another size than expected, is also handed to `inflateRawSync`,
 * so its error is the one it always was.
 */
import { constants, createDeflateRaw, deflateRawSync, inflateRawSync } from 'node:zlib';

/** Node's zlib binding handle, as its own zlib streams drive it (lib/zlib.js). */
export interface ZlibHandle {
  onerror?: (message: string, errno: number, code?: string) => void;
  init(windowBits: number, level: number, memLevel: number, strategy: number, writeState: Uint32Array, processCallback: () => void, dictionary: undefined): void;
  writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
  /** The same on the thread pool: `processCallback` (or `onerror`) is called when it is done. */
  write(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
  close(): void;
}
type ZlibHandleClass = new (mode: number) => ZlibHandle;

const LEVEL = 6;
/** [output space left, input left] after each write, as zlib's handle reports them. */
const writeState = new Uint32Array(2);
let deflateOutput = Buffer.allocUnsafe(64 * 1024);
/** Node's zlib handle class, once looked up; undefined when unusable (the *Sync functions then). */
let handleClass: ZlibHandleClass | undefined | null = null;

/**
 * Node's zlib handle class, kept only if driving it here gives `deflateRawSync`'s and
 * `inflateRawSync`'s bytes for a sample (checked once: another Node version's internals could
 * take other arguments).
 */
function lookUpHandleClass(): ZlibHandleClass | undefined {
  try {
    const probe = createDeflateRaw();
    const ctor = (probe as unknown as { _handle?: { constructor?: unknown } })._handle?.constructor;
    probe.close();
    if (typeof ctor !== 'function') return undefined;
    handleClass = ctor as ZlibHandleClass;
    const sample = Buffer.from('aabify: <manifest package="com.example"/> '.repeat(40));
    const deflated = deflateRawSync(sample, { level: LEVEL });
    const direct = deflateIntoOutput(sample);
    return direct?.equals(deflated) && inflateDirectly(deflated, sample.length)?.equals(sample) ? (ctor as ZlibHandleClass) : undefined;
  } catch {
    return undefined;
  }
}

const noop = (): void => undefined;

/** Node's zlib handle class when driving it directly gives Node's own bytes here, else undefined. */
export function zlibHandleClass(): ZlibHandleClass | undefined {
  if (handleClass === null) handleClass = lookUpHandleClass();
  return handleClass;
}

/**
 * Runs `use` with a new handle of `mode`, initialised as Node's zlib streams initialise theirs;
 * undefined when the handle reports an error or throws.
 */
function withHandle<T>(mode: number, level: number, use: (handle: ZlibHandle, failed: () => boolean) => T | undefined): T | undefined {
  const HandleClass = zlibHandleClass();
  if (!HandleClass) return undefined;
  let failed = false;
  let handle: ZlibHandle | undefined;
  try {
    handle = new HandleClass(mode);
    handle.onerror = () => {
      failed = true;
    };
    handle.init(constants.Z_DEFAULT_WINDOWBITS, level, constants.Z_DEFAULT_MEMLEVEL, constants.Z_DEFAULT_STRATEGY, writeState, noop, undefined);
    const result = use(handle, () => failed);
    return failed ? undefined : result;
  } catch {
    return undefined;
  } finally {
    try {
      handle?.close();
    } catch {
      // closing a handle that failed to initialise
    }
  }
}

/** The deflated bytes in the shared output buffer (valid until the next call), or undefined to fall back. */
function deflateIntoOutput(data: Uint8Array, level: number = LEVEL): Buffer | undefined {
  return withHandle(constants.DEFLATERAW, level, (handle, failed) => {
    let written = 0;
    let inOff = 0;
    let inLen = data.length;
    for (;;) {
      if (deflateOutput.length - written < 1024) {
        const bigger = Buffer.allocUnsafe(deflateOutput.length * 2);
        deflateOutput.copy(bigger, 0, 0, written);
        deflateOutput = bigger;
      }
      const space = deflateOutput.length - written;
      writeState[0] = 0;
      writeState[1] = inLen;
      handle.writeSync(constants.Z_FINISH, data, inOff, inLen, deflateOutput, written, space);
      if (failed()) return undefined;
      const [spaceLeft, inputLeft] = writeState;
      written += space - spaceLeft;
      inOff += inLen - inputLeft;
      inLen = inputLeft;
      if (spaceLeft !== 0) break; // zlib stopped with output space to spare: the stream is finished
    }
    return deflateOutput.subarray(0, written);
  });
}

/**
 * `data` inflated into a new buffer when it holds one whole raw deflate stream of exactly
 * `size` bytes and nothing after it; otherwise undefined (the caller falls back).
 */
function inflateDirectly(data: Uint8Array, size: number): Buffer | undefined {
  return withHandle(constants.INFLATERAW, constants.Z_DEFAULT_COMPRESSION, (handle, failed) => {
    // One byte of room more than expected: a stream that fills it is longer than declared.
    const out = Buffer.allocUnsafe(size + 1);
    writeState[0] = 0;
    writeState[1] = data.length;
    // Z_FINISH: an input that ends before its stream does is an error ("unexpected end of file").
    handle.writeSync(constants.Z_FINISH, data, 0, data.length, out, 0, out.length);
    const [spaceLeft, inputLeft] = writeState;
    if (failed() || spaceLeft !== 1 || inputLeft !== 0) return undefined;
    return out.subarray(0, size);
  });
}

/** Whether the zlib handle is driven directly here (false: every call falls back to the *Sync functions). */
export function drivesZlibDirectly(): boolean {
  return deflateIntoOutput(new Uint8Array(1)) !== undefined;
}

/** `deflateRawSync(data, { level })` (level 6 by default), byte for byte, as a Buffer of its own. */
export function deflateRawSmall(data: Uint8Array, level: number = LEVEL): Buffer {
  const out = deflateIntoOutput(data, level);
  return out ? Buffer.from(out) : deflateRawSync(data, { level });
}

/** The length of `deflateRawSync(data, { level: 6 })`. */
export function deflatedLengthSmall(data: Uint8Array): number {
  return (deflateIntoOutput(data) ?? deflateRawSync(data, { level: LEVEL })).length;
}

/**
 * `inflateRawSync(data, { maxOutputLength: size + 1 })` for a stream declared to inflate to
 * `size` bytes: the same bytes, or the same error, which that call then throws.
 */
export function inflateRawSmall(data: Uint8Array, size: number): Buffer {
  return inflateDirectly(data, size) ?? inflateRawSync(data, { maxOutputLength: size + 1 });
}

/**
 * The first bytes (at most `length`) that `data`, the head of a raw deflate stream, inflates to:
 * zlib stops when `length` bytes are out, so a head that would inflate to far more (a bomb) costs
 * no more than `length`. Throws as `inflateRawSync` does on data that is not deflate.
 */
export function inflateRawHead(data: Uint8Array, length: number): Buffer {
  const direct = withHandle(constants.INFLATERAW, constants.Z_DEFAULT_COMPRESSION, (handle, failed) => {
    const out = Buffer.allocUnsafe(length);
    writeState[0] = 0;
    writeState[1] = data.length;
    // Z_SYNC_FLUSH: a head that ends mid-stream is not an error, it gives what it holds.
    handle.writeSync(constants.Z_SYNC_FLUSH, data, 0, data.length, out, 0, length);
    return failed() ? undefined : out.subarray(0, length - writeState[0]);
  });
  if (direct) return direct;
  return inflateRawSync(data, { finishFlush: constants.Z_SYNC_FLUSH }).subarray(0, length);
}
