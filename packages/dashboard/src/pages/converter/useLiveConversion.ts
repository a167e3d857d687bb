/**
 * Wires the conversion page to the live channel: one LiveConnection per page visit, the
 * store fed by its updates, the indicator polled every second, a resumed conversion when the
 * server lists an active one, and a catch-up from the REST status after a reconnection.
 *
 * Entries written before the page joined the conversion's room (the upload's 'Arquivo
 * recebido…' and 'Conversão adicionada à fila', or everything before a resume in another tab
 * or a reconnection) reach the page only through GET /conversion/logs/:id: the stored log is
 * read whenever the page starts following a conversion, on every catch-up and once it ends,
 * and merged with the live entries (no duplicates, time order).
 */
import { useEffect, useMemo, useRef } from 'react';
import { conversionApi } from '../../api/conversions';
import { isActiveConversionStatus } from '@aabify/shared';
import { conversionView, newQueuedConversion, type ConversionView } from '../../lib/conversion';
import { logEntriesFromAnswer } from '../../lib/logs';
import { LiveConnection } from '../../live/liveConnection';
import { useConversions } from '../../stores/conversions';
import { useSession } from '../../stores/session';
import { signOutEverywhere } from '../../stores/signOut';
import { toast } from '../../stores/toasts';

export const CONNECTION_POLL_MS = 1000;
/** Polls of the indicator between two REST catch-ups while no live channel is up. */
const REST_FALLBACK_EVERY = 3;

/**
 * The stored log of a conversion merged into the console (quiet: a failed read leaves the
 * live entries as they are). A clear made meanwhile wins over this read.
 */
export async function loadStoredLogs(id: string): Promise<void> {
  const epoch = useConversions.getState().logsEpoch;
  try {
    const entries = logEntriesFromAnswer(await conversionApi.logs(id, { quiet: true }));
    useConversions.getState().addLogs(id, entries, epoch);
  } catch {
    /* the live channel goes on */
  }
}

/** The REST view of a conversion, merged into the page's state (logs kept and de-duplicated), and its stored log. */
export async function catchUp(id: string): Promise<void> {
  void loadStoredLogs(id);
  try {
    const view = conversionView(await conversionApi.status(id));
    const s = useConversions.getState();
    if (s.current?.id !== id) return;
    s.track({ ...s.current, ...view, logs: [...s.current.logs, ...view.logs], lastUpdate: s.current.lastUpdate });
  } catch {
    /* the live channel goes on */
  }
}

export interface LiveConversionOptions {
  /**
   * The converter page: a conversion that is already running (listed at connection) or was
   * started elsewhere (conversion-created) while the page is idle is handed over here, and the
   * page opens /conversions/:id. Without it (the conversion's own page) only the followed
   * conversion matters.
   */
  onAdopt?(view: ConversionView): void;
}

export function useLiveConversion(options: LiveConversionOptions = {}): { follow(view: ConversionView): void; stop(): void } {
  // The latest onAdopt, for the connection's handlers (which outlive a render).
  const adopt = useRef(options.onAdopt);
  useEffect(() => {
    adopt.current = options.onAdopt;
  });
  const token = useSession((s) => s.token);
  const conn = useRef<LiveConnection | null>(null);
  const followed = useRef<string | null>(null);

  useEffect(() => {
    const store = useConversions.getState;
    let wasConnected = false;
    const connection = new LiveConnection(token, {
      onUpdate: (u) => store().apply(u),
      onStatus: (st) => {
        store().setLive(st);
        if (st.connected && !wasConnected && followed.current) void catchUp(followed.current);
        wasConnected = st.connected;
      },
      onCreated: (c) => {
        const s = store();
        if (!adopt.current || s.phase !== 'idle' || s.current) return;
        const view = newQueuedConversion(c.conversionId, c.fileName, c.fileSize);
        s.track(view);
        adopt.current(view);
      },
      onActiveConversions: (list) => {
        const s = store();
        if (!adopt.current || s.phase !== 'idle' || s.current || list.length === 0) {
          if (!followed.current) connection.releaseIfIdle();
          return;
        }
        const fromList = conversionView(list[list.length - 1]!);
        const id = fromList.id;
        void connection.requestStats(id).then((stats) => {
          const view = stats?.success ? conversionView(stats) : fromList;
          if (store().current?.id !== id && store().phase === 'idle' && adopt.current) {
            store().track({ ...view, id });
            adopt.current({ ...view, id });
          }
        });
      },
      // The old session's channel does not sign out the session a password change handed over.
      onAuthError: () => {
        if (useSession.getState().token === token) signOutEverywhere();
      },
      onError: (message) => toast.error(message, 'Erro de Conexão'),
    });
    conn.current = connection;
    // Finished (by a live update or a REST catch-up): nothing left to follow; the socket
    // closes when no subscription remains.
    const unsubscribeStore = useConversions.subscribe((st) => {
      const cur = st.current;
      if (cur && followed.current === cur.id && !isActiveConversionStatus(cur.status)) {
        followed.current = null;
        connection.unsubscribe(cur.id);
        // Whatever was written while the page was not listening, once more at the end, and
        // the final status (report, pre-publication checklist).
        void catchUp(cur.id);
      }
    });
    connection.start();
    let ticks = 0;
    const poll = setInterval(() => {
      const st = connection.status();
      const live = store().live;
      if (st.connected !== live.connected || st.transport !== live.transport) store().setLive(st);
      // With neither socket nor stream up, the REST status keeps the page moving.
      ticks++;
      if (!st.connected && followed.current && ticks % REST_FALLBACK_EVERY === 0) void catchUp(followed.current);
    }, CONNECTION_POLL_MS);
    return () => {
      unsubscribeStore();
      clearInterval(poll);
      connection.close();
      conn.current = null;
      followed.current = null;
    };
  }, [token]);

  // One pair for the page's life (they only use refs): effects can depend on them.
  return useMemo(
    () => ({
      follow: (view: ConversionView) => {
        followed.current = view.id;
        conn.current?.subscribe(view.id);
        // The entries written before the subscription (upload received, queued).
        void loadStoredLogs(view.id);
        // A short conversion may end before the subscription lands.
        setTimeout(() => followed.current === view.id && void catchUp(view.id), 1000);
      },
      stop: () => {
        if (followed.current) conn.current?.unsubscribe(followed.current);
        followed.current = null;
      },
    }),
    [],
  );
}
