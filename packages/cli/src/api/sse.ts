/** A server-sent events reader over any byte stream (the text/event-stream format). */
import { CliError, EXIT_NETWORK } from './errors.js';

export interface ServerEvent {
  event: string;
  data: string;
  id?: string;
}

/** Longest line, and longest event (its data lines together), a server may send: past it the stream is refused. */
export const MAX_EVENT_CHARS = 1024 * 1024;

function eventTooLarge(): CliError {
  return new CliError('SSE_EVENT_TOO_LARGE', 'O servidor enviou um evento de atualização maior que 1 MiB; o acompanhamento em tempo real foi interrompido.', EXIT_NETWORK);
}

/** Yields each dispatched event; comments and retry fields are skipped. */
export async function* readServerEvents(body: AsyncIterable<Buffer | string>, maxChars = MAX_EVENT_CHARS): AsyncGenerator<ServerEvent> {
  const decoder = new TextDecoder('utf-8');
  let buffer = '';
  // Where the search for a line end resumes: each chunk is scanned once, never the whole buffer again.
  let scanned = 0;
  let data: string[] = [];
  let dataChars = 0;
  let event = '';
  let id: string | undefined;
  const takeLine = function* (line: string): Generator<ServerEvent> {
    if (line === '') {
      if (data.length > 0) yield { event: event || 'message', data: data.join('\n'), ...(id !== undefined ? { id } : {}) };
      data = [];
      dataChars = 0;
      event = '';
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      dataChars += value.length + 1;
      if (dataChars > maxChars) throw eventTooLarge();
      data.push(value);
    } else if (field === 'event') event = value;
    else if (field === 'id') id = value;
  };
  for await (const chunk of body) {
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let lineStart = 0;
    for (let i = scanned; i < buffer.length; i++) {
      const c = buffer.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      // A lone \r at the end may be the first half of \r\n: wait for more.
      if (c === 13 && i === buffer.length - 1) break;
      const line = buffer.slice(lineStart, i);
      if (c === 13 && buffer.charCodeAt(i + 1) === 10) i++;
      lineStart = i + 1;
      yield* takeLine(line);
    }
    buffer = buffer.slice(lineStart);
    scanned = buffer.length > 0 && buffer.charCodeAt(buffer.length - 1) === 13 ? buffer.length - 1 : buffer.length;
    if (buffer.length > maxChars) throw eventTooLarge();
  }
  // The stream ended on a \r: it was a line end after all.
  if (buffer.endsWith('\r')) yield* takeLine(buffer.slice(0, -1));
}
