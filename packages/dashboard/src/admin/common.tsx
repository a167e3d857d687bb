/** Pieces every admin screen uses: figures, windowed pagination, confirmations, debounce, live updates. */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import Card from 'react-bootstrap/Card';
import { useNavigate } from 'react-router-dom';
import { isApiRequestError } from '../api/client';
import { LiveConnection } from '../live/liveConnection';
import type { ConversionUpdate } from '@aabify/shared';
import { useSession } from '../stores/session';
import { signOutEverywhere } from '../stores/signOut';

export function StatCard({ label, value, hint, testId, variant }: { label: string; value: ReactNode; hint?: ReactNode; testId?: string; variant?: string }) {
  return (
    <Card className="h-100" data-testid={testId}>
      <Card.Body>
        <div className="text-body-secondary small">{label}</div>
        {/* The -emphasis shades keep WCAG AA contrast in both themes (plain warning yellow does not). */}
        <div className={`fs-4 fw-semibold stat-value-text ${variant ? `text-${variant.replace(/-emphasis$/, '')}-emphasis` : ''}`} data-testid={testId ? `${testId}-value` : undefined}>
          {value}
        </div>
        {hint && <div className="small text-body-secondary">{hint}</div>}
      </Card.Body>
    </Card>
  );
}

export { PageList } from '../components/PageList';

/** Moved to components/ so user screens share it without loading the admin chunk. */
export { ConfirmModal } from '../components/ConfirmModal';

export function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}

/** 'Erro ao X: <server message>', or the fallback alone. */
export function failureText(e: unknown, fallback: string): string {
  const server = isApiRequestError(e) ? e.serverMessage : e instanceof Error ? e.message : undefined;
  return server ? `${fallback}: ${server}` : fallback;
}

/** Field errors the server sent (400 with fields). */
export function serverFields(e: unknown): Record<string, string> {
  return isApiRequestError(e) && e.fields ? e.fields : {};
}

/**
 * Live updates for a set of conversions: subscribes to the ids given, drops the ones no
 * longer given, closes the channel when the list is empty. A real-time auth_error ends the
 * session and goes to /login, as on the user screens.
 */
export function useLiveConversions(ids: readonly string[], onUpdate: (u: ConversionUpdate) => void): void {
  const token = useSession((s) => s.token);
  const conn = useRef<LiveConnection | null>(null);
  // The latest callbacks, for the connection's handlers (which outlive a render).
  const handler = useRef(onUpdate);
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  useEffect(() => {
    handler.current = onUpdate;
    navigateRef.current = navigate;
  });
  const key = [...ids].sort().join(',');
  useEffect(() => {
    if (!token) return;
    const c = new LiveConnection(token, {
      onUpdate: (u) => handler.current(u),
      onStatus: () => undefined,
      onAuthError: () => {
        // The old session's channel does not sign out the session a password change handed over.
        if (useSession.getState().token !== token) return;
        signOutEverywhere();
        navigateRef.current('/login', { replace: true });
      },
    });
    conn.current = c;
    return () => {
      c.close();
      conn.current = null;
    };
  }, [token]);
  useEffect(() => {
    const c = conn.current;
    if (!c) return;
    const wanted = new Set(key ? key.split(',') : []);
    const current = subscribed.get(c) ?? new Set<string>();
    for (const id of current) if (!wanted.has(id)) c.unsubscribe(id);
    for (const id of wanted) if (!current.has(id)) c.subscribe(id);
    subscribed.set(c, wanted);
  }, [key, token]);
}

const subscribed = new WeakMap<LiveConnection, Set<string>>();
