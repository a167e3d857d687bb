/**
 * Inflating or deflating on the thread pool for output that is looked at once and not kept: a
 * copied entry's bytes inflated on the side only to prove their CRC (and hash them), a sample
 * deflated only to count its length, a stored entry deflated into the zip being written (its bytes
 * copied into the writer's buffer at once). Node's zlib streams and one-shot functions hand out a
 * new Buffer for every output chunk; V8 frees those only at its next full collection, so in a
 * server's engine thread they piled up, tens of MB between tasks, and added to the process's peak.
 * Here zlib's handle is driven as Node's own streams drive it, writing every chunk into one output
 * buffer, which goes back to a small pool when the sink is closed.
 *
 * Where the handle cannot be driven directly (see smallZlib.ts), a Node zlib stream does the same
 * work behind the same interface: the output is the same, only its buffers are new.
 */
import { constants, createDeflateRaw, createInflateRaw, type DeflateRaw, type InflateRaw } from 'node:zlib';
import { BufferPool } from './bufferPool.js';
import { type ZlibHandle, zlibHandleClass } from './smallZlib.js';

/**
 * Output space per zlib call: few, large chunks keep the per-chunk JS work (callbacks, CRC calls)
 * low, and a 256 KiB sample (the size estimate's window) deflates in one call even when it does
 * not compress (deflate adds a few bytes per 16 KiB block).
 */
const OUTPUT_CHUNK = 260 * 1024;
/** Input queued in a sink before `push` asks its caller to wait (bounds the memory it holds). */
const BACKLOG = 8 * 1024 * 1024;
/** Output buffers for the sinks: kept as many as run at once in practice (an engine's estimate and copies). */
const outputBuffers = new BufferPool(OUTPUT_CHUNK, 4);

export interface ZlibSink {
  /**
   * Queues input; returns a promise only when the queue has grown past BACKLOG, which resolves
   * once the queue is short again or the stream has failed (it never rejects: nobody need catch
   * it). Throws the stream's failure (zlib's error, or what `onOutput` threw) once there is one,
   * as `idle` and `end` do.
   */
  push(chunk: Uint8Array): Promise<void> | undefined;
  /**
   * Resolves once zlib has taken every chunk pushed so far (the caller may then reuse them);
   * rejects with the stream's failure.
   */
  idle(): Promise<void>;
  /**
   * Ends the stream once the queue is done, `last` (if any) its last input: passed with Z_FINISH
   * in one call, as `deflateRawSync` passes its whole input. Rejects with the stream's failure.
   */
  end(last?: Uint8Array): Promise<void>;
  /** Frees zlib's state; safe at any time and more than once (input still queued is dropped). */
  close(): void;
}

/**
 * A sink that inflates raw deflate data. `onOutput` sees each chunk of inflated bytes, valid only
 * during the call. Input after the end of the deflate stream is ignored, as Node's InflateRaw
 * ignores it: the caller's size and CRC checks judge what came out.
 */
export function inflateSink(onOutput: (bytes: Buffer) => void): ZlibSink {
  const HandleClass = zlibHandleClass();
  return HandleClass ? new HandleSink(new HandleClass(constants.INFLATERAW), constants.Z_DEFAULT_COMPRESSION, onOutput) : new StreamSink(createInflateRaw({ chunkSize: OUTPUT_CHUNK }), onOutput);
}

/** A sink that deflates raw at `level`: the same bytes as `deflateRaw(all input, { level })`, chunk by chunk. */
export function deflateSink(level: number, onOutput: (bytes: Buffer) => void): ZlibSink {
  const HandleClass = zlibHandleClass();
  return HandleClass ? new HandleSink(new HandleClass(constants.DEFLATERAW), level, onOutput) : new StreamSink(createDeflateRaw({ level, chunkSize: OUTPUT_CHUNK }), onOutput);
}

/** The length of `deflateRaw(data, { level })`, on the thread pool, its output never kept. */
export async function deflatedByteCount(data: Uint8Array, level: number): Promise<number> {
  let length = 0;
  const sink = deflateSink(level, (bytes) => (length += bytes.length));
  try {
    await sink.end(data);
  } finally {
    sink.close();
  }
  return length;
}

/** zlib's error as Node's zlib reports it: its message, errno and code. */
function zlibError(message: string, errno: number, code: string | undefined): Error {
  return Object.assign(new Error(message), { errno, code });
}

class HandleSink implements ZlibSink {
  private readonly queue: Uint8Array[] = [];
  private queued = 0;
  private readonly writeState = new Uint32Array(2);
  private output: Buffer | undefined = outputBuffers.take();
  /**
   * The call in flight, told when zlib is done with it; it holds the buffers zlib reads and
   * writes meanwhile, as Node's streams hold theirs, so neither can be collected under zlib.
   */
  private call: { resolve(): void; reject(err: Error): void; input: Uint8Array; output: Buffer } | undefined;
  private pump: Promise<void> | undefined;
  private waiting: { promise: Promise<void>; resolve(): void } | undefined;
  private failure: Error | undefined;
  /** zlib reached the end of the deflate stream: later input is ignored. */
  private streamEnded = false;
  private closed = false;

  constructor(
    private readonly handle: ZlibHandle,
    level: number,
    private readonly onOutput: (bytes: Buffer) => void,
  ) {
    handle.onerror = (message, errno, code) => {
      const call = this.call;
      this.call = undefined;
      call?.reject(zlibError(message, errno, code));
    };
    const done = (): void => {
      const call = this.call;
      this.call = undefined;
      call?.resolve();
    };
    handle.init(constants.Z_DEFAULT_WINDOWBITS, level, constants.Z_DEFAULT_MEMLEVEL, constants.Z_DEFAULT_STRATEGY, this.writeState, done, undefined);
  }

  push(chunk: Uint8Array): Promise<void> | undefined {
    if (this.failure) throw this.failure;
    if (this.closed) return undefined;
    this.queue.push(chunk);
    this.queued += chunk.length;
    this.pump ??= this.drain();
    if (this.queued <= BACKLOG) return undefined;
    if (!this.waiting) {
      let resolve!: () => void;
      const promise = new Promise<void>((res) => (resolve = res));
      this.waiting = { promise, resolve };
    }
    return this.waiting.promise;
  }

  async idle(): Promise<void> {
    while (this.pump) await this.pump;
    if (this.failure) throw this.failure;
  }

  async end(last?: Uint8Array): Promise<void> {
    while (this.pump) await this.pump;
    if (!this.failure && !this.closed) {
      try {
        await this.run(constants.Z_FINISH, this.streamEnded || !last ? new Uint8Array(0) : last);
      } catch (e) {
        this.failure = e as Error;
      }
    }
    if (this.failure) throw this.failure;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.length = 0;
    this.release();
    // A call still in flight: Node's handle closes itself once it is back (closing now is allowed).
    this.handle.close();
  }

  private release(): void {
    this.waiting?.resolve();
    this.waiting = undefined;
    // Back to the pool only when no call can still write into it.
    if (this.output && !this.call) outputBuffers.give(this.output);
    this.output = undefined;
  }

  /** Feeds the queue to zlib, one call at a time (Node's handle takes no second call while one runs). */
  private async drain(): Promise<void> {
    try {
      for (let chunk = this.queue.shift(); chunk && !this.closed; chunk = this.queue.shift()) {
        this.queued -= chunk.length;
        if (!this.streamEnded) await this.run(constants.Z_NO_FLUSH, chunk);
        if (this.waiting && this.queued <= BACKLOG) {
          this.waiting.resolve();
          this.waiting = undefined;
        }
      }
    } catch (e) {
      this.failure = e as Error;
      this.queue.length = 0;
      this.waiting?.resolve();
      this.waiting = undefined;
    } finally {
      this.pump = undefined;
    }
  }

  /** Passes all of `input` to zlib with `flush`, handing each filled stretch of output to onOutput. */
  private async run(flush: number, input: Uint8Array): Promise<void> {
    let offset = 0;
    let left = input.length;
    for (;;) {
      const output = this.output;
      if (this.closed || !output) return;
      this.writeState[0] = 0;
      this.writeState[1] = left;
      await new Promise<void>((resolve, reject) => {
        this.call = { resolve, reject, input, output };
        this.handle.write(flush, input, offset, left, output, 0, output.length);
      });
      if (this.closed) return;
      const [spaceLeft, inputLeft] = this.writeState as unknown as [number, number];
      if (spaceLeft < output.length) this.onOutput(output.subarray(0, output.length - spaceLeft));
      offset += left - inputLeft;
      left = inputLeft;
      // Output space to spare: zlib took all it could. With input left over, the stream ended.
      if (spaceLeft !== 0) {
        if (left > 0 || flush === constants.Z_FINISH) this.streamEnded = true;
        return;
      }
    }
  }
}

/** The same interface over a Node zlib stream (where the handle cannot be driven directly). */
class StreamSink implements ZlibSink {
  private failure: Error | undefined;
  private readonly ended: Promise<void>;

  constructor(
    private readonly stream: InflateRaw | DeflateRaw,
    onOutput: (bytes: Buffer) => void,
  ) {
    stream.on('data', (c: Buffer) => {
      if (this.failure) return;
      try {
        onOutput(c);
      } catch (e) {
        this.failure = e as Error;
        stream.destroy();
      }
    });
    this.ended = new Promise<void>((resolve) => {
      stream.on('end', resolve);
      stream.on('close', resolve);
      stream.on('error', (e) => {
        this.failure ??= e;
        resolve();
      });
    });
  }

  push(chunk: Uint8Array): Promise<void> | undefined {
    if (this.failure) throw this.failure;
    if (this.stream.destroyed || this.stream.writableEnded) return undefined;
    this.stream.write(chunk);
    if (this.stream.writableLength <= BACKLOG) return undefined;
    return new Promise<void>((resolve) => {
      const done = (): void => {
        this.stream.off('drain', done);
        this.stream.off('close', done);
        resolve();
      };
      this.stream.on('drain', done);
      this.stream.on('close', done);
    });
  }

  async idle(): Promise<void> {
    // A write's callback runs once the stream has transformed it and every chunk before it.
    if (!this.stream.destroyed) await new Promise<void>((resolve) => this.stream.write(new Uint8Array(0), () => resolve()));
    if (this.failure) throw this.failure;
  }

  async end(last?: Uint8Array): Promise<void> {
    if (!this.stream.destroyed) this.stream.end(last);
    await this.ended;
    if (this.failure) throw this.failure;
  }

  close(): void {
    this.stream.destroy();
  }
}
