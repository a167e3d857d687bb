/**
 * Raw deflate at level 6 of a small input, synchronously: byte for byte what
 * `deflateRawSync(data, { level: 6 })` gives (a fresh zlib context each time, the same
 * parameters), without what Node wraps around it. `deflateRawSync` builds a whole stream object
 * (Transform, Duplex, their state) and a 16 KiB output buffer per call; a 1 MB APK deflates ~400
 * small entries (its generated XML for the bundle, its stored images for the estimate), and that
 * wrapping was about half of their ~15 ms on the main thread. Here the zlib handle is driven
 * directly, as Node's own sync functions drive it, writing into one reused output buffer.
 *
 * The handle is Node's internal zlib binding (reached through a stream's `_handle`, as the
 * verifier thread reaches its inflater's): where it is missing or behaves unexpectedly, this
 * falls back to `deflateRawSync`, so the result is the same either way.
 */
import { constants, createDeflateRaw, deflateRawSync } from 'node:zlib';

interface ZlibHandle {
  onerror?: (message: string, errno: number) => void;
  init(windowBits: number, level: number, memLevel: number, strategy: number, writeState: Uint32Array, processCallback: () => void, dictionary: undefined): void;
  writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
  close(): void;
}
type ZlibHandleClass = new (mode: number) => ZlibHandle;

const LEVEL = 6;
/** [output space left, input left] after each write, as zlib's handle reports them. */
const writeState = new Uint32Array(2);
let output = Buffer.allocUnsafe(64 * 1024);
/** Node's zlib handle class, once looked up; undefined when unusable (deflateRawSync then). */
let handleClass: ZlibHandleClass | undefined | null = null;

/**
 * Node's zlib handle class, kept only if driving it here gives `deflateRawSync`'s bytes for a
 * sample (checked once: another Node version's internals could take other arguments).
 */
function lookUpHandleClass(): ZlibHandleClass | undefined {
  try {
    const probe = createDeflateRaw();
    const ctor = (probe as unknown as { _handle?: { constructor?: unknown } })._handle?.constructor;
    probe.close();
    if (typeof ctor !== 'function') return undefined;
    handleClass = ctor as ZlibHandleClass;
    const sample = Buffer.from('aabify: <manifest package="com.example"/> '.repeat(40));
    const direct = deflateIntoOutput(sample);
    return direct?.equals(deflateRawSync(sample, { level: LEVEL })) ? (ctor as ZlibHandleClass) : undefined;
  } catch {
    return undefined;
  }
}

const noop = (): void => undefined;

/** The deflated bytes in the shared output buffer (valid until the next call), or undefined to fall back. */
function deflateIntoOutput(data: Uint8Array): Buffer | undefined {
  if (handleClass === null) handleClass = lookUpHandleClass();
  if (!handleClass) return undefined;
  let failed = false;
  let handle: ZlibHandle | undefined;
  try {
    handle = new handleClass(constants.DEFLATERAW);
    handle.onerror = () => {
      failed = true;
    };
    handle.init(constants.Z_DEFAULT_WINDOWBITS, LEVEL, constants.Z_DEFAULT_MEMLEVEL, constants.Z_DEFAULT_STRATEGY, writeState, noop, undefined);
    let written = 0;
    let inOff = 0;
    let inLen = data.length;
    for (;;) {
      if (output.length - written < 1024) {
        const bigger = Buffer.allocUnsafe(output.length * 2);
        output.copy(bigger, 0, 0, written);
        output = bigger;
      }
      const space = output.length - written;
      writeState[0] = 0;
      writeState[1] = inLen;
      handle.writeSync(constants.Z_FINISH, data, inOff, inLen, output, written, space);
      if (failed) return undefined;
      const [spaceLeft, inputLeft] = writeState;
      written += space - spaceLeft;
      inOff += inLen - inputLeft;
      inLen = inputLeft;
      if (spaceLeft !== 0) break; // zlib stopped with output space to spare: the stream is finished
    }
    return output.subarray(0, written);
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

/** Whether the zlib handle is driven directly here (false: every call falls back to deflateRawSync). */
export function deflatesDirectly(): boolean {
  return deflateIntoOutput(new Uint8Array(1)) !== undefined;
}

/** `deflateRawSync(data, { level: 6 })`, byte for byte, as a Buffer of its own. */
export function deflateRawSmall(data: Uint8Array): Buffer {
  const out = deflateIntoOutput(data);
  return out ? Buffer.from(out) : deflateRawSync(data, { level: LEVEL });
}

/** The length of `deflateRawSync(data, { level: 6 })`. */
export function deflatedLengthSmall(data: Uint8Array): number {
  return (deflateIntoOutput(data) ?? deflateRawSync(data, { level: LEVEL })).length;
}
