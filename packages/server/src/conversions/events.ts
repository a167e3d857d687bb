/**
 * Conversion events to every client, whichever process runs the job. A message reaches this
 * process's sockets and SSE streams at once, and the other processes through one serverSideEmit
 * of the Postgres adapter (a NOTIFY), where each delivers it to its own sockets and streams —
 * one NOTIFY per message, not one for the room's broadcast and another for the streams, and none
 * when no other process runs (realtime/io.ts). Many messages at once (the queue's positions)
 * travel together, a few to a NOTIFY. Publishing is serialised on one pg connection, so a
 * conversion's messages arrive in the order they were sent.
 */
import type { Server } from 'socket.io';
import {
  CONVERSION_MESSAGES,
  SOCKET_EVENTS,
  conversionChannel,
  type ConversionCreatedEvent,
  type ConversionUpdate,
} from '@aabify/shared';
import type { Logger } from '../logger.js';
import type { Conversion } from '../models/index.js';
import { emitToOtherProcesses } from '../realtime/io.js';

type Listener = (msg: ConversionUpdate) => void;

const REMOTE_UPDATE = 'aabify:conversion-update';
const REMOTE_UPDATES = 'aabify:conversion-updates';
const REMOTE_CANCEL = 'aabify:conversion-cancel';
const REMOTE_CREATED = 'aabify:conversion-created';

export const userRoom = (userId: string) => `user:${userId}`;

/** Log texts are cut so one message always fits a NOTIFY payload. */
const MAX_TEXT = 2000;
/**
 * Bytes of messages sent together: under the adapter's NOTIFY payload limit (8000; above it
 * a message goes through a table row instead, one more write and one read per process).
 */
const BATCH_BYTES = 6000;

function fit(msg: ConversionUpdate): ConversionUpdate {
  const cut = (s: string | undefined) => (s && s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}…` : s);
  if (msg.log) msg = { ...msg, log: { ...msg.log, message: cut(msg.log.message) ?? '' } };
  if (msg.message) msg = { ...msg, message: cut(msg.message) };
  if (msg.error) msg = { ...msg, error: cut(msg.error) };
  return msg;
}

export class ConversionEvents {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly cancelHandlers = new Set<(conversionId: string) => void>();
  /**
   * The last status and newest progress each conversion's messages carried. Progress is sent more
   * often than it is written to the database, so a late subscriber's snapshot takes the larger of
   * the two; a queue broadcast read before a conversion started must not send it 'queued' again.
   */
  private readonly stateSeen = new Map<string, { status: string; progress: number }>();

  constructor(
    readonly io: Server,
    private readonly logger: Logger,
  ) {
    io.on(REMOTE_UPDATE, (msg: ConversionUpdate) => this.deliverLocal(msg));
    io.on(REMOTE_UPDATES, (msgs: ConversionUpdate[]) => {
      for (const msg of msgs) this.deliverLocal(msg);
    });
    io.on(REMOTE_CANCEL, (conversionId: string) => this.runCancelHandlers(conversionId));
    io.on(REMOTE_CREATED, (userId: string, evt: ConversionCreatedEvent) => this.createdLocal(userId, evt));
  }

  /** To the other processes, if any; their handlers are registered in the constructor. */
  private toOthers(event: string, ...args: unknown[]): void {
    emitToOtherProcesses(this.io, event, ...args).catch((err: unknown) => this.logger.warn({ err, event }, 'conversion event not sent to the other processes'));
  }

  /** A `conversion:{id}` message to sockets and SSE streams everywhere. */
  update(msg: ConversionUpdate): void {
    const out = fit(msg);
    this.deliverLocal(out);
    this.toOthers(REMOTE_UPDATE, out);
  }

  /** Many messages (of one conversion in order, or of many), sent to the other processes a few at a time. */
  updateMany(msgs: readonly ConversionUpdate[]): void {
    let batch: ConversionUpdate[] = [];
    let bytes = 0;
    for (const msg of msgs) {
      const out = fit(msg);
      this.deliverLocal(out);
      const size = JSON.stringify(out).length;
      if (batch.length > 0 && bytes + size > BATCH_BYTES) {
        this.toOthers(REMOTE_UPDATES, batch);
        batch = [];
        bytes = 0;
      }
      batch.push(out);
      bytes += size;
    }
    if (batch.length > 0) this.toOthers(REMOTE_UPDATES, batch);
  }

  /** The conversion failed: its error, as clients show it. */
  failed(c: Conversion): void {
    const error = c.error ?? CONVERSION_MESSAGES.genericFailure;
    this.update({ type: 'error', conversionId: c.id, timestamp: new Date().toISOString(), status: 'failed', error, message: error, code: c.errorCode ?? undefined });
  }

  /** `conversion-created` to every socket of the owner. */
  created(userId: string, evt: ConversionCreatedEvent): void {
    this.createdLocal(userId, evt);
    this.toOthers(REMOTE_CREATED, userId, evt);
  }

  private createdLocal(userId: string, evt: ConversionCreatedEvent): void {
    this.io.local.to(userRoom(userId)).emit(SOCKET_EVENTS.conversionCreated, evt);
  }

  /** SSE (and tests) listen to one conversion in this process. */
  subscribe(conversionId: string, listener: Listener): () => void {
    let set = this.listeners.get(conversionId);
    if (!set) this.listeners.set(conversionId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(conversionId);
    };
  }

  /** Asks whichever process runs the conversion to stop it. */
  requestCancel(conversionId: string): void {
    this.runCancelHandlers(conversionId);
    this.toOthers(REMOTE_CANCEL, conversionId);
  }

  onCancelRequest(handler: (conversionId: string) => void): void {
    this.cancelHandlers.add(handler);
  }

  private runCancelHandlers(conversionId: string): void {
    for (const h of this.cancelHandlers) h(conversionId);
  }

  /** True once a message said this conversion left the queue (a queue broadcast read earlier is stale). */
  leftQueue(conversionId: string): boolean {
    const seen = this.stateSeen.get(conversionId);
    return seen !== undefined && seen.status !== 'queued' && seen.status !== 'pending';
  }

  /** The newest progress a message carried for this conversion while it was in `status`. */
  progressOf(conversionId: string, status: string): number | undefined {
    const seen = this.stateSeen.get(conversionId);
    return seen && seen.status === status ? seen.progress : undefined;
  }

  private noteState(msg: ConversionUpdate): void {
    if (!msg.status) return;
    const seen = this.stateSeen.get(msg.conversionId);
    if (msg.status === 'completed' || msg.status === 'failed' || msg.status === 'cancelled') {
      // Kept briefly so a queue broadcast already under way does not resend 'queued'.
      this.stateSeen.set(msg.conversionId, { status: msg.status, progress: 100 });
      setTimeout(() => this.stateSeen.delete(msg.conversionId), 60_000).unref();
      return;
    }
    const progress = typeof msg.progress === 'number' ? msg.progress : 0;
    this.stateSeen.set(msg.conversionId, { status: msg.status, progress: seen && seen.status === msg.status ? Math.max(seen.progress, progress) : progress });
  }

  /** To this process's sockets in the conversion's room and its own listeners (SSE). */
  private deliverLocal(msg: ConversionUpdate): void {
    this.noteState(msg);
    const channel = conversionChannel(msg.conversionId);
    this.io.local.to(channel).emit(channel, msg);
    const set = this.listeners.get(msg.conversionId);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(msg);
      } catch (err) {
        this.logger.warn({ err }, 'conversion event listener failed');
      }
    }
  }
}
