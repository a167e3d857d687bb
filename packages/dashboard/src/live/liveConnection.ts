/**
 * Live updates of conversions (docs/dashboard.md "How live data works"): socket.io with the token in
 * the handshake (10 s timeout, 3 reconnection attempts, 1 s apart), auto-subscription to the
 * user's active conversions, then one subscription per conversion; server-sent events at
 * /api/conversion/updates/{id}?token=<stream ticket> when the socket fails. The ticket is
 * minted over an authenticated call and opens one stream once, so the session token never
 * goes in a URL; the browser's own reconnection would reuse a spent ticket, so a failed stream
 * is closed and reopened here with a new one. Disconnects when no subscription remains.
 */
import { io, type Socket } from 'socket.io-client';
import {
  conversionChannel,
  CONVERSION_MESSAGES,
  PUBLICATION_SOCKET_EVENT,
  SOCKET_EVENTS as E,
  type ApiConversion,
  type ConversionCreatedEvent,
  type ConversionStatsAnswer,
  type ConversionUpdate,
  type PublicationUpdate,
} from '@aabify/shared';
import { emitPublicationUpdate } from './publicationEvents';
import { conversionApi } from '../api/conversions';

export const SOCKET_OPTIONS = { timeout: 10000, reconnectionAttempts: 3, reconnectionDelay: 1000 } as const;
export const REQUEST_TIMEOUT_MS = 5000;
/**
 * A socket that is not connected this long after a subscription (say, a proxy that accepts and
 * drops websockets without an error) also falls back to SSE.
 */
export const SOCKET_GRACE_MS = 3000;
/** A failed event stream is reopened (with a new ticket) after this long, a few times in a row at most. */
export const STREAM_RETRY_MS = 3000;
const STREAM_RETRIES = 5;

export const LIVE_MESSAGES = {
  tokenMissing: CONVERSION_MESSAGES.tokenMissing,
  connectError: 'Erro ao conectar com o servidor (tentando fallback SSE)',
  socketFailed: 'Falha ao conectar WebSocket',
  sseError: 'Erro no canal SSE',
  sseStartFailed: 'Falha ao iniciar fallback SSE',
  unauthorisedAttempt: 'Tentativa de acesso não autorizado a uma conversão',
} as const;

export interface LiveChannelStatus {
  connected: boolean;
  transport: 'socket' | 'sse' | null;
  lost: boolean;
}

export interface LiveHandlers {
  onUpdate(update: ConversionUpdate): void;
  onStatus(status: LiveChannelStatus): void;
  onCreated?(c: ConversionCreatedEvent): void;
  onActiveConversions?(list: ApiConversion[]): void;
  onAuthError(): void;
  /** A server error that the user should see (not the 'not found or not authorised' kind). */
  onError?(message: string, conversionId?: string): void;
}

export interface LiveOptions {
  /** Socket origin; the page's own by default. */
  url?: string;
  /** Builds the SSE stream (tests inject one). */
  eventSource?: (url: string) => EventSource;
  /** Mints the stream ticket of a conversion (POST /conversion/updates/{id}/ticket by default). */
  streamTicket?: (conversionId: string) => Promise<string>;
}

const MAX_SERVER_KICK_RECONNECTS = 3;

export class LiveConnection {
  private socket: Socket | null = null;
  private readonly subscriptions = new Set<string>();
  private readonly streams = new Map<string, EventSource>();
  /** Streams being opened (ticket under way) and streams waiting to be reopened. */
  private readonly streamsPending = new Set<string>();
  private readonly streamRetries = new Map<string, { failures: number; timer: ReturnType<typeof setTimeout> | null }>();
  private closed = false;
  private everConnected = false;
  private kicks = 0;
  /** The socket failed since it last connected: new subscriptions go to SSE right away. */
  private socketFailing = false;
  private kickTimer: ReturnType<typeof setTimeout> | null = null;
  private watchdog: ReturnType<typeof setInterval> | null = null;
  private downSince: number | null = null;

  constructor(
    private readonly token: string | null,
    private readonly handlers: LiveHandlers,
    private readonly options: LiveOptions = {},
  ) {}

  /** Opens the socket; without a token nothing connects ('Token não encontrado'). */
  start(): void {
    if (!this.token) {
      console.warn(LIVE_MESSAGES.tokenMissing);
      this.handlers.onError?.(LIVE_MESSAGES.tokenMissing);
      return;
    }
    if (this.socket || this.closed) return;
    const socket = io(this.options.url ?? window.location.origin, {
      auth: { token: this.token },
      transports: ['websocket', 'polling'],
      tryAllTransports: true,
      timeout: SOCKET_OPTIONS.timeout,
      reconnection: true,
      reconnectionAttempts: SOCKET_OPTIONS.reconnectionAttempts,
      reconnectionDelay: SOCKET_OPTIONS.reconnectionDelay,
    });
    this.socket = socket;
    this.downSince = Date.now();
    this.watchdog = setInterval(() => {
      if (socket.connected) this.downSince = null;
      else {
        this.downSince ??= Date.now();
        if (this.subscriptions.size > 0 && Date.now() - this.downSince >= SOCKET_GRACE_MS && this.streams.size < this.subscriptions.size) {
          this.socketFailing = true;
          this.startStreams();
          this.report(true);
        }
      }
    }, 1000);

    socket.on('connect', () => {
      this.everConnected = true;
      this.socketFailing = false;
      this.kicks = 0;
      this.closeStreams();
      socket.emit(E.autoSubscribe);
      for (const id of this.subscriptions) this.emitSubscribe(id);
      this.report();
    });
    socket.on('disconnect', (reason) => {
      if (this.closed) return;
      // A server-side disconnect is not retried by socket.io itself.
      if (reason === 'io server disconnect') this.retryAfterKick();
      this.report(true);
    });
    socket.on('connect_error', (err: Error & { data?: { code?: unknown } }) => {
      if (this.closed) return;
      console.warn(LIVE_MESSAGES.connectError, err.message);
      this.socketFailing = true;
      // The server refused the handshake and says why in pt-BR (too many live connections, of
      // this account or from this network address).
      if (err.data?.code === 'TOO_MANY_LIVE_CONNECTIONS' || err.data?.code === 'TOO_MANY_CONNECTIONS_FROM_ADDRESS') this.handlers.onError?.(err.message);
      if (/auth|token|unauthori[sz]ed|jwt/i.test(err.message) && !socket.active) {
        this.handlers.onAuthError();
        return;
      }
      this.startStreams();
      this.report(this.everConnected);
    });
    socket.io.on('reconnect_failed', () => {
      console.warn(LIVE_MESSAGES.socketFailed);
      this.socketFailing = true;
      this.startStreams();
      this.report(true);
    });
    socket.on(E.activeConversions, (list: ApiConversion[]) => {
      if (Array.isArray(list)) this.handlers.onActiveConversions?.(list);
    });
    socket.on(PUBLICATION_SOCKET_EVENT, (u: PublicationUpdate) => {
      if (u && typeof u.publication?.id === 'string') emitPublicationUpdate(u);
    });
    socket.on(E.conversionCreated, (c: ConversionCreatedEvent) => {
      if (c && typeof c.conversionId === 'string') this.handlers.onCreated?.(c);
    });
    socket.on(E.error, (e: { message?: string; conversionId?: string } | string) => {
      const message = typeof e === 'string' ? e : e?.message ?? '';
      if (/não encontrada ou não autorizada/i.test(message)) {
        console.warn(LIVE_MESSAGES.unauthorisedAttempt, typeof e === 'string' ? undefined : e?.conversionId);
        return;
      }
      if (message) this.handlers.onError?.(message, typeof e === 'string' ? undefined : e?.conversionId);
    });
    socket.on(E.authError, () => this.handlers.onAuthError());
    this.report();
  }

  subscribe(conversionId: string): void {
    if (this.subscriptions.has(conversionId)) return;
    this.subscriptions.add(conversionId);
    if (!this.socket && !this.closed) this.start();
    this.socket?.on(conversionChannel(conversionId), this.onSocketUpdate);
    if (this.socket?.connected) this.emitSubscribe(conversionId);
    else if (this.socketFailing || this.streams.size > 0 || this.socket?.active === false) this.openStream(conversionId);
  }

  unsubscribe(conversionId: string): void {
    if (!this.subscriptions.delete(conversionId)) return;
    this.socket?.off(conversionChannel(conversionId), this.onSocketUpdate);
    if (this.socket?.connected) this.socket.emit(E.unsubscribe, { conversionId });
    this.streams.get(conversionId)?.close();
    this.streams.delete(conversionId);
    this.forgetStreamRetry(conversionId);
    if (this.subscriptions.size === 0) this.disconnect();
  }

  /** get_conversion_stats → conversion_stats_response; nothing after 5 s. */
  requestStats(conversionId: string): Promise<ConversionStatsAnswer | undefined> {
    return this.ask(E.stats, E.statsResponse, conversionId) as Promise<ConversionStatsAnswer | undefined>;
  }

  /** generate_download_link → download_link_response { downloadLink }; nothing after 5 s. */
  async requestDownloadLink(conversionId: string): Promise<string | undefined> {
    const r = await this.ask(E.downloadLink, E.downloadLinkResponse, conversionId);
    return typeof r === 'object' && r !== null && typeof (r as { downloadLink?: unknown }).downloadLink === 'string' ? (r as { downloadLink: string }).downloadLink : undefined;
  }

  /** Closes the channel when nothing is subscribed (after the active-conversions answer). */
  releaseIfIdle(): void {
    if (this.subscriptions.size === 0 && this.socket) this.disconnect();
  }

  isConnected(): boolean {
    if (this.socket?.connected) return true;
    for (const s of this.streams.values()) if (s.readyState === 1) return true;
    return false;
  }

  status(): LiveChannelStatus {
    if (this.socket?.connected) return { connected: true, transport: 'socket', lost: false };
    for (const s of this.streams.values()) if (s.readyState === 1) return { connected: true, transport: 'sse', lost: false };
    return { connected: false, transport: null, lost: this.everConnected || this.streams.size > 0 };
  }

  close(): void {
    this.closed = true;
    this.subscriptions.clear();
    this.disconnect();
  }

  private disconnect(): void {
    if (this.kickTimer) clearTimeout(this.kickTimer);
    this.kickTimer = null;
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
    this.closeStreams();
    if (this.socket) {
      this.socket.removeAllListeners();
      this.socket.io.removeAllListeners();
      this.socket.disconnect();
      this.socket = null;
    }
    this.everConnected = false;
    this.handlers.onStatus({ connected: false, transport: null, lost: false });
  }

  private readonly onSocketUpdate = (update: ConversionUpdate) => {
    if (update && typeof update === 'object') this.handlers.onUpdate(update);
  };

  private emitSubscribe(conversionId: string): void {
    this.socket?.emit(E.subscribe, { conversionId });
  }

  private retryAfterKick(): void {
    if (this.kicks >= MAX_SERVER_KICK_RECONNECTS) {
      this.socketFailing = true;
      this.startStreams();
      return;
    }
    this.kicks++;
    this.kickTimer = setTimeout(() => {
      this.kickTimer = null;
      if (!this.closed && this.socket && !this.socket.connected) this.socket.connect();
    }, SOCKET_OPTIONS.reconnectionDelay);
  }

  private ask(event: string, answer: string, conversionId: string): Promise<unknown> {
    const socket = this.socket;
    if (!socket?.connected) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        socket.off(answer, onAnswer);
        resolve(undefined);
      }, REQUEST_TIMEOUT_MS);
      const onAnswer = (r: unknown) => {
        const id = typeof r === 'object' && r !== null ? (r as { conversionId?: unknown }).conversionId : undefined;
        if (id !== undefined && id !== conversionId) return;
        clearTimeout(timer);
        socket.off(answer, onAnswer);
        resolve(r);
      };
      socket.on(answer, onAnswer);
      socket.emit(event, { conversionId });
    });
  }

  private startStreams(): void {
    for (const id of this.subscriptions) this.openStream(id);
  }

  private openStream(conversionId: string): void {
    if (this.closed || !this.token || this.streams.has(conversionId) || this.streamsPending.has(conversionId)) return;
    // A failed stream waits for its retry (or was given up after too many).
    const retry = this.streamRetries.get(conversionId);
    if (retry && (retry.timer || retry.failures > STREAM_RETRIES)) return;
    this.streamsPending.add(conversionId);
    const mint = this.options.streamTicket ?? ((id: string) => conversionApi.streamTicket(id).then((t) => t.ticket));
    mint(conversionId).then(
      (ticket) => {
        this.streamsPending.delete(conversionId);
        // Still wanted: subscribed, and the socket did not come back meanwhile.
        if (this.closed || !this.subscriptions.has(conversionId) || this.socket?.connected || this.streams.has(conversionId)) return;
        this.openStreamWith(conversionId, ticket);
      },
      (e: unknown) => {
        this.streamsPending.delete(conversionId);
        console.warn(LIVE_MESSAGES.sseStartFailed, e);
        this.retryStream(conversionId);
      },
    );
  }

  private openStreamWith(conversionId: string, ticket: string): void {
    const url = `/api/conversion/updates/${encodeURIComponent(conversionId)}?token=${encodeURIComponent(ticket)}`;
    let stream: EventSource;
    try {
      stream = this.options.eventSource ? this.options.eventSource(url) : new EventSource(url);
    } catch (e) {
      console.warn(LIVE_MESSAGES.sseStartFailed, e);
      return;
    }
    this.streams.set(conversionId, stream);
    stream.onopen = () => {
      this.forgetStreamRetry(conversionId);
      this.report();
    };
    stream.onmessage = (ev: MessageEvent<string>) => {
      try {
        const data: unknown = JSON.parse(ev.data);
        if (typeof data === 'object' && data !== null && typeof (data as ConversionUpdate).type === 'string') this.handlers.onUpdate(data as ConversionUpdate);
      } catch {
        /* a comment or keep-alive line */
      }
    };
    stream.onerror = () => {
      console.warn(LIVE_MESSAGES.sseError);
      // The browser would retry with the spent ticket: close, and reopen with a new one.
      stream.close();
      if (this.streams.get(conversionId) === stream) this.streams.delete(conversionId);
      this.report(true);
      this.retryStream(conversionId);
    };
  }

  private retryStream(conversionId: string): void {
    const retry = this.streamRetries.get(conversionId) ?? { failures: 0, timer: null };
    this.streamRetries.set(conversionId, retry);
    retry.failures++;
    if (retry.timer || retry.failures > STREAM_RETRIES) return;
    retry.timer = setTimeout(() => {
      retry.timer = null;
      if (!this.closed && this.subscriptions.has(conversionId) && !this.socket?.connected) this.openStream(conversionId);
    }, STREAM_RETRY_MS);
  }

  private forgetStreamRetry(conversionId: string): void {
    const retry = this.streamRetries.get(conversionId);
    if (retry?.timer) clearTimeout(retry.timer);
    this.streamRetries.delete(conversionId);
  }

  private closeStreams(): void {
    for (const s of this.streams.values()) s.close();
    this.streams.clear();
    for (const id of [...this.streamRetries.keys()]) this.forgetStreamRetry(id);
  }

  private report(lostHint = false): void {
    const s = this.status();
    this.handlers.onStatus(s.connected ? s : { ...s, lost: s.lost || lostHint });
  }
}
