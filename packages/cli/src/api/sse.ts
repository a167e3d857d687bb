/** A server-sent events reader over any byte stream (the text/event-stream format). */

export interface ServerEvent {
  event: string;
  data: string;
  id?: string;
}

/** Yields each dispatched event; comments and retry fields are skipped. */
export async function* readServerEvents(body: AsyncIterable<Buffer | string>): AsyncGenerator<ServerEvent> {
  const decoder = new TextDecoder('utf-8');
  let buffer = '';
  let data: string[] = [];
  let event = '';
  let id: string | undefined;
  const takeLine = function* (line: string): Generator<ServerEvent> {
    if (line === '') {
      if (data.length > 0) yield { event: event || 'message', data: data.join('\n'), ...(id !== undefined ? { id } : {}) };
      data = [];
      event = '';
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id') id = value;
  };
  for await (const chunk of body) {
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    for (;;) {
      const m = /\r\n|\n|\r/.exec(buffer);
      // A lone \r at the end may be the first half of \r\n: wait for more.
      if (!m || (m[0] === '\r' && m.index === buffer.length - 1)) break;
      const line = buffer.slice(0, m.index);
      buffer = buffer.slice(m.index + m[0].length);
      yield* takeLine(line);
    }
  }
}
