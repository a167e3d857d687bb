/**
 * The server-sent events fallback: GET /api/conversion/updates/{id}?token=<stream ticket>
 * streams the same JSON messages as the socket's conversion:{id} channel, starting with the
 * current state. Messages from other processes arrive through the event bus (adapter
 * serverSideEmit). The stream ends when its user loses the right to it (`watch`, see
 * realtime/access.ts).
 */
import type { Request, Response } from 'express';
import type { ConversionUpdate } from '@aabify/shared';
import type { Conversion } from '../models/index.js';
import { snapshotMessages, type SnapshotDeps } from './snapshot.js';

const HEARTBEAT_MS = 15000;

/** Registers the stream's `end` with whatever may end it; returns the unregistration. */
export type StreamWatch = (end: () => void) => () => void;

export async function openUpdateStream(req: Request, res: Response, deps: SnapshotDeps, conversion: Conversion, watch: StreamWatch): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  req.socket.setNoDelay(true);
  req.socket.setTimeout(0);

  // Nothing is written once the stream was ended (an access change may end it mid-snapshot).
  const write = (text: string) => {
    if (!res.writableEnded) res.write(text);
  };
  const send = (msg: ConversionUpdate) => write(`data: ${JSON.stringify(msg)}\n\n`);
  // Listen first, so nothing that happens while the snapshot is read is lost.
  const buffered: ConversionUpdate[] = [];
  let live = false;
  const unsubscribe = deps.conversionEvents.subscribe(conversion.id, (msg) => (live ? send(msg) : buffered.push(msg)));
  const unwatch = watch(() => res.end());
  const heartbeat = setInterval(() => write(': ping\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  const stop = () => {
    clearInterval(heartbeat);
    unsubscribe();
    unwatch();
  };
  res.on('close', stop);
  req.on('close', stop);

  write('retry: 3000\n\n');
  for (const msg of await snapshotMessages(deps, conversion.id)) send(msg);
  for (const msg of buffered.splice(0)) send(msg);
  live = true;
}
