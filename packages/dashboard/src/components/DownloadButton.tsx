import { formatBytes } from '@aabify/shared';
import { useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { NamedProgressBar } from './ProgressMeter';
import Spinner from 'react-bootstrap/Spinner';
import { DOWNLOAD_TEXTS, downloadConversion } from '../api/download';
import { isApiRequestError } from '../api/client';
import type { ConversionKind } from '@aabify/shared';
import { toast } from '../stores/toasts';

export type DownloadState = 'idle' | 'preparing' | 'downloading' | 'done' | 'error';
export const DOWNLOAD_DONE_RESET_MS = 3000;

/**
 * 'Baixar AAB' ('Baixar APK' for AAB → APK) → preparing → downloading N% → 'Download Concluído' (back to idle after 3 s),
 * or 'Tentar Novamente' with the error inline; a byte-progress bar below.
 * The failure toast reads 'Erro no download: …' unless the screen gives its own text
 * (`failureMessage`, e.g. the bulk screen's 'Erro ao fazer download').
 */
export function DownloadButton({
  conversionId,
  size,
  compact = false,
  failureMessage,
  kind = 'apk-to-aab',
  idleLabel,
}: {
  conversionId: string;
  kind?: ConversionKind;
  /** The idle button's text when the kind's default does not fit (a device set's 'Baixar APKs (.apks)'). */
  idleLabel?: string;
  size?: 'sm' | 'lg';
  compact?: boolean;
  failureMessage?: string;
}) {
  const [state, setState] = useState<DownloadState>('idle');
  const [received, setReceived] = useState(0);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);
  useEffect(() => {
    if (state !== 'done') return;
    const t = setTimeout(() => setState('idle'), DOWNLOAD_DONE_RESET_MS);
    return () => clearTimeout(t);
  }, [state]);

  const start = async () => {
    abort.current?.abort();
    const ctrl = new AbortController();
    abort.current = ctrl;
    setState('preparing');
    setError(null);
    setReceived(0);
    setTotal(0);
    toast.info(DOWNLOAD_TEXTS.preparing);
    try {
      const name = await downloadConversion(
        conversionId,
        {
          onStarted: () => {
            setState('downloading');
            toast.info(DOWNLOAD_TEXTS.started);
          },
          onProgress: (p) => {
            setReceived(p.received);
            setTotal(p.total);
          },
        },
        ctrl.signal,
      );
      setState('done');
      toast.success(DOWNLOAD_TEXTS.done(name));
    } catch (e) {
      if (ctrl.signal.aborted) return;
      const message = isApiRequestError(e) ? e.message : e instanceof Error ? e.message : String(e);
      setError(message);
      setState('error');
      toast.error(failureMessage ?? DOWNLOAD_TEXTS.failed(message));
    }
  };

  const percent = total > 0 ? Math.min(100, Math.round((received / total) * 100)) : 0;
  const busy = state === 'preparing' || state === 'downloading';
  const label =
    state === 'preparing' ? 'Preparando...' : state === 'downloading' ? `Baixando ${percent}%` : state === 'done' ? 'Download Concluído' : state === 'error' ? 'Tentar Novamente' : (idleLabel ?? (kind === 'aab-to-apks' ? 'Baixar APK' : 'Baixar AAB'));
  const variant = state === 'done' ? 'success' : state === 'error' ? 'outline-danger' : 'primary';
  return (
    <div className={compact ? 'd-inline-block' : ''} data-testid="download">
      <Button variant={variant} size={size} onClick={start} disabled={busy} data-state={state} aria-live="polite">
        {busy && <Spinner size="sm" className="me-2" aria-hidden="true" />}
        {label}
      </Button>
      {!compact && (busy || state === 'done') && (
        <div className="mt-2">
          <NamedProgressBar now={state === 'done' ? 100 : percent} label="Progresso do download" style={{ height: 6 }} />
          <small className="text-body-secondary" data-testid="download-bytes">
            {formatBytes(received)}
            {total > 0 ? ` de ${formatBytes(total)}` : ''}
          </small>
        </div>
      )}
      {!compact && state === 'error' && error && (
        <div className="text-danger small mt-2" role="alert">
          {DOWNLOAD_TEXTS.failed(error)}
        </div>
      )}
    </div>
  );
}
