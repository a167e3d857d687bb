/**
 * Buffers of one size kept for reuse on this thread. Work that needs a large scratch buffer for a
 * while (an archive's output buffer, an entry read chunk by chunk, zlib's output) takes one here
 * and gives it back when done: a fresh one each time would wait for V8's next full collection to
 * be freed, and in a server's engine thread, which converts one APK after another, those
 * piled up to tens of MB between tasks.
 */
export class BufferPool {
  private readonly spare: Buffer[] = [];

  constructor(
    readonly size: number,
    /** How many are kept at most (as many as are in use at once in practice). */
    private readonly keep: number,
  ) {}

  take(): Buffer {
    return this.spare.pop() ?? Buffer.allocUnsafe(this.size);
  }

  /** Gives `buffer` back; its giver must not touch it again (nor anything still reading or writing it). */
  give(buffer: Buffer): void {
    if (buffer.length === this.size && this.spare.length < this.keep && !this.spare.includes(buffer)) this.spare.push(buffer);
  }
}

/** 1 MiB buffers: a zip writer's output buffer, an entry's compressed bytes read chunk by chunk. */
export const megabyteBuffers = new BufferPool(1024 * 1024, 3);
