/**
 * Conversion events to every client, whichever process runs the job. socket.io rooms reach
 * sockets on other processes through the Postgres adapter; SSE streams of other processes get
 * the same message through the adapter's serverSideEmit. Publishing is serialised on one pg
 * connection, so a conversion's messages arrive in the order they were sent.
 */
import type { Server } from 'socket.io';
import {
  SOCKET_EVENTS,
  conversionChannel,
  type ConversionCreatedEvent,
  type ConversionUpdate,
} from '@aabify/shared';
import type { Logger } from '../logger.js';

type Listener = (msg: ConversionUpdate) => void;

const REMOTE_UPDATE = 'aabify:conversion-update';
const REMOTE_CANCEL = 'aabify:conversion-cancel';

export const userRoom = (userId: string) => `user:${userId}`;

/** Log texts are cut so one message always fits a NOTIFY payload. */
const MAX_TEXT = 2000;

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

  constructor(
    readonly io: Server,
    private readonly logger: Logger,
  ) {
    io.on(REMOTE_UPDATE, (msg: ConversionUpdate) => this.deliverLocal(msg));
    io.on(REMOTE_CANCEL, (conversionId: string) => this.runCancelHandlers(conversionId));
  }

  /** A `conversion:{id}` message to sockets and SSE streams everywhere. */
  update(msg: ConversionUpdate): void {
    const out = fit(msg);
    const channel = conversionChannel(out.conversionId);
    this.io.to(channel).emit(channel, out);
    this.deliverLocal(out);
    this.io.serverSideEmit(REMOTE_UPDATE, out);
  }

  /** `conversion-created` to every socket of the owner. */
  created(userId: string, evt: ConversionCreatedEvent): void {
    this.io.to(userRoom(userId)).emit(SOCKET_EVENTS.conversionCreated, evt);
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
    this.io.serverSideEmit(REMOTE_CANCEL, conversionId);
  }

  onCancelRequest(handler: (conversionId: string) => void): void {
    this.cancelHandlers.add(handler);
  }

  private runCancelHandlers(conversionId: string): void {
    for (const h of this.cancelHandlers) h(conversionId);
  }

  private deliverLocal(msg: ConversionUpdate): void {
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
