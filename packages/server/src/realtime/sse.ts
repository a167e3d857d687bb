/**
 * The server-sent events fallback: GET /api/conversion/updates/{id}?token=… streams the same
 * JSON messages as the socket's conversion:{id} channel, starting with the current state.
 * Messages from other processes arrive through the event bus (adapter serverSideEmit).
 */
import type { Request, Response } from 'express';
import type { ConversionUpdate } from '@aabify/shared';
import type { Conversion } from '../models/index.js';
import type { ConversionService } from '../conversions/service.js';
import { snapshotMessages } from './snapshot.js';

const HEARTBEAT_MS = 15000;

export async function openUpdateStream(req: Request, res: Response, service: ConversionService, conversion: Conversion): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  req.socket.setNoDelay(true);
  req.socket.setTimeout(0);

  const send = (msg: ConversionUpdate) => {
    res.write(`data: ${JSON.stringify(msg)}\n\n`);
  };
  // Listen first, so nothing that happens while the snapshot is read is lost.
  const buffered: ConversionUpdate[] = [];
  let live = false;
  const unsubscribe = service.events.subscribe(conversion.id, (msg) => (live ? send(msg) : buffered.push(msg)));
  res.write('retry: 3000\n\n');
  for (const msg of await snapshotMessages(service, conversion.id)) send(msg);
  for (const msg of buffered.splice(0)) send(msg);
  live = true;

  const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
  heartbeat.unref();
  const stop = () => {
    clearInterval(heartbeat);
    unsubscribe();
  };
  res.on('close', stop);
  req.on('close', stop);
}
