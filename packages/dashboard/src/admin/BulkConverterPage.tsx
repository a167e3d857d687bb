import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Collapse from 'react-bootstrap/Collapse';
import ListGroup from 'react-bootstrap/ListGroup';
import Row from 'react-bootstrap/Row';
import Spinner from 'react-bootstrap/Spinner';
import { ADMIN_MESSAGES, CONVERSION_LIMITS, CONVERSION_MESSAGES, conversionStepTag, countOf, formatBytes, isActiveConversionStatus } from '@aabify/shared';
import { adminApi } from '../api/admin';
import { isApiRequestError } from '../api/client';
import { conversionApi } from '../api/conversions';
import { saveBlob } from '../api/download';
import { DownloadButton } from '../components/DownloadButton';
import { checkApkFile } from '../lib/apkFile';
import { applyUpdate, conversionView, mergeLogs, newQueuedConversion, type ConversionView } from '../lib/conversion';
import { formatRetryAfter, formatTime } from '../lib/format';
import { logEntriesFromAnswer, logFileName, logsAsText } from '../lib/logs';
import { useBulkConversions } from '../stores/bulkConversions';
import { toast } from '../stores/toasts';
import { ProgressMeter } from '../components/ProgressMeter';
import { TOUCH_QUERY, useMediaQuery } from '../components/useMediaQuery';
import { StatCard, useLiveConversions } from './common';
import { usePageTitle } from '../components/PageHeader';

const MAX_FILES = CONVERSION_LIMITS.bulkMaxFiles;
/** Log lines kept per item in bulk. */
const BULK_LOGS = 100;
const POLL_MS = 3000;

/** Bulk labels: Aguardando, Processando, Concluído, Falhou (and Cancelado). */
export const BULK_STATUS: Record<string, { label: string; bg: string }> = {
  pending: { label: 'Aguardando', bg: 'secondary' },
  queued: { label: 'Aguardando', bg: 'info' },
  processing: { label: 'Processando', bg: 'primary' },
  completed: { label: 'Concluído', bg: 'success' },
  failed: { label: 'Falhou', bg: 'danger' },
  cancelled: { label: 'Cancelado', bg: 'secondary' },
};

const keepLogs = (c: ConversionView): ConversionView => (c.logs.length > BULK_LOGS ? { ...c, logs: c.logs.slice(-BULK_LOGS) } : c);

/** Adds picked files to the list: .apk only, at most 100 MB each; past 10 in all the first are kept and the rest named. */
export function addFiles(current: readonly File[], picked: readonly File[]): { files: File[]; errors: string[] } {
  const errors: string[] = [];
  const files = [...current];
  const left: string[] = [];
  for (const f of picked) {
    const check = checkApkFile(f);
    if (!check.ok) errors.push(`${f.name}: ${check.error}`);
    else if (files.some((x) => x.name === f.name && x.size === f.size)) continue;
    else if (files.length >= MAX_FILES) left.push(f.name);
    else files.push(f);
  }
  if (left.length) errors.push(ADMIN_MESSAGES.dropTooMany(MAX_FILES, left));
  return { files, errors };
}

/** What the page says about the last pick or run, under the drop zone (never a toast over it). */
interface Notice {
  variant: 'success' | 'warning' | 'danger';
  text: string;
}

function ItemLogs({ item }: { item: ConversionView }) {
  const [open, setOpen] = useState(false);
  // A fast conversion ends before its live lines arrive: its stored log is read when opened.
  const [stored, setStored] = useState<ConversionView['logs'] | null>(null);
  const shown = item.logs.length ? item.logs : (stored ?? []);
  const toggle = () => {
    setOpen((o) => !o);
    if (!open && item.logs.length === 0 && stored === null) {
      conversionApi.logs(item.id).then(
        (answer) => setStored(logEntriesFromAnswer(answer)),
        () => setStored([]),
      );
    }
  };
  const download = async () => {
    try {
      const fetched = logEntriesFromAnswer(await conversionApi.logs(item.id));
      const logs = mergeLogs(fetched, item.logs);
      saveBlob(new Blob([logsAsText(logs, true)], { type: 'text/plain;charset=utf-8' }), logFileName(item.id));
      toast.success(ADMIN_MESSAGES.logsDownloaded, { admin: true });
    } catch {
      toast.error(ADMIN_MESSAGES.logsDownloadFailed);
    }
  };
  return (
    <div className="mt-2">
      <Button size="sm" variant="link" className="p-0 me-3" onClick={toggle} aria-expanded={open} data-testid="bulk-logs-toggle">
        {open ? 'Ocultar logs' : item.logs.length ? `Ver logs (${item.logs.length})` : 'Ver logs'}
      </Button>
      <Button size="sm" variant="link" className="p-0" onClick={() => void download()} data-testid="bulk-logs-download">
        Baixar logs
      </Button>
      <Collapse in={open}>
        <div>
          <pre className="small bg-body-tertiary border rounded p-2 mt-2 mb-0" style={{ maxHeight: 200, overflow: 'auto' }} data-testid="bulk-logs">
            {shown.length ? shown.map((l) => `[${formatTime(l.timestamp)}] ${l.step ? `[${conversionStepTag(l.step)}] ` : ''}${l.message}`).join('\n') : ADMIN_MESSAGES.noLogs}
          </pre>
        </div>
      </Collapse>
    </div>
  );
}

/** Bulk conversion (docs/admin.md): up to 10 APKs at once, each followed live, with logs and result downloads. */
export default function BulkConverterPage() {
  usePageTitle('Conversão em Massa');
  const [files, setFiles] = useState<File[]>([]);
  const items = useBulkConversions((s) => s.items);
  const setItems = useBulkConversions((s) => s.setItems);
  const [uploading, setUploading] = useState(false);
  const [sent, setSent] = useState(0);
  const [dragging, setDragging] = useState(false);
  const [notices, setNotices] = useState<Notice[]>([]);
  const touch = useMediaQuery(TOUCH_QUERY, false);
  const input = useRef<HTMLInputElement>(null);

  const pick = (picked: readonly File[]) => {
    const r = addFiles(files, picked);
    setNotices(r.errors.map((text) => ({ variant: 'warning', text })));
    setFiles(r.files);
  };

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setDragging(false);
    pick([...e.dataTransfer.files]);
  };

  const start = async () => {
    if (files.length === 0) return;
    setUploading(true);
    setSent(0);
    setNotices([]);
    try {
      const total = files.reduce((s, f) => s + f.size, 0);
      const r = await adminApi.bulkConvert(files, (s) => setSent(total ? Math.round((s / total) * 100) : 0));
      const created = r.conversions.map((c) => newQueuedConversion(c.conversionId, c.originalFileName ?? c.fileName, c.fileSize, { queuePosition: c.queuePosition, estimatedTime: c.estimatedTime }));
      setItems((list) => [...created, ...list]);
      setNotices([
        ...(created.length ? [{ variant: 'success' as const, text: r.message }] : []),
        ...r.errors.map((err) => ({ variant: 'danger' as const, text: `${err.fileName}: ${err.error}` })),
      ]);
      setFiles([]);
    } catch (e) {
      const text =
        isApiRequestError(e) && e.status === 429 && e.retryAfter !== undefined
          ? `Muitos envios em pouco tempo. Tente novamente em ${formatRetryAfter(e.retryAfter)}.`
          : isApiRequestError(e)
            ? (e.serverMessage ?? ADMIN_MESSAGES.bulkUploadFailed)
            : ADMIN_MESSAGES.bulkUploadFailed;
      setNotices([{ variant: 'danger', text }]);
    } finally {
      setUploading(false);
    }
  };

  const activeIds = useMemo(() => items.filter((c) => isActiveConversionStatus(c.status)).map((c) => c.id), [items]);
  useLiveConversions(activeIds, (u) => setItems((list) => list.map((c) => (c.id === u.conversionId ? keepLogs(applyUpdate(c, u)) : c))));

  // A safety net for events missed between the upload answer and the subscription.
  const activeKey = activeIds.join(',');
  useEffect(() => {
    if (!activeKey) return;
    const t = setInterval(() => {
      for (const id of activeKey.split(',')) {
        conversionApi
          .status(id)
          .then((answer) => {
            const fresh = conversionView(answer);
            setItems((list) =>
              list.map((c) => (c.id === id && (fresh.status !== c.status || fresh.progress > c.progress) ? keepLogs({ ...c, ...fresh, fileName: c.fileName, logs: mergeLogs(c.logs, fresh.logs) }) : c)),
            );
          })
          .catch(() => undefined);
      }
    }, POLL_MS);
    return () => clearInterval(t);
  }, [activeKey, setItems]);

  const counts = {
    completed: items.filter((c) => c.status === 'completed').length,
    processing: items.filter((c) => c.status === 'processing').length,
    queued: items.filter((c) => c.status === 'queued' || c.status === 'pending').length,
    failed: items.filter((c) => c.status === 'failed' || c.status === 'cancelled').length,
  };
  const totalSize = files.reduce((s, f) => s + f.size, 0);

  return (
    <>
      <h1 className="h3 mb-3">Conversão em Massa</h1>
      {items.length > 0 && <p className="text-body-secondary small" data-testid="bulk-kept">Os resultados ficam aqui enquanto você usa outras telas.</p>}
      <Card className="mb-3">
        <Card.Body>
          <div
            role="button"
            tabIndex={0}
            className={`border border-2 rounded p-4 text-center ${dragging ? 'border-primary bg-primary-subtle' : 'border-dashed'}`}
            style={{ borderStyle: 'dashed' }}
            onClick={() => input.current?.click()}
            onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && input.current?.click()}
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            data-testid="bulk-dropzone"
          >
            <div className="fw-semibold">{touch ? 'Toque para escolher os arquivos APK' : 'Arraste os arquivos APK aqui ou clique para selecionar'}</div>
            <div className="small text-body-secondary">Até {MAX_FILES} arquivos, no máximo 100 MB cada</div>
            <input
              ref={input}
              type="file"
              accept=".apk,application/vnd.android.package-archive"
              multiple
              hidden
              data-testid="bulk-input"
              onChange={(e) => {
                pick([...(e.target.files ?? [])]);
                e.target.value = '';
              }}
            />
          </div>
          {notices.length > 0 && (
            <div className="mt-3" role="status" data-testid="bulk-notices">
              {notices.map((n, i) => (
                <Alert key={i} variant={n.variant} className="py-2 mb-2 text-break-word" data-testid="bulk-notice" data-variant={n.variant}>
                  {n.text}
                </Alert>
              ))}
            </div>
          )}
          {files.length > 0 && (
            <>
              <ListGroup className="mt-3" data-testid="bulk-files">
                {files.map((f, i) => (
                  <ListGroup.Item key={`${f.name}-${i}`} className="d-flex justify-content-between align-items-center">
                    <span className="text-break">{f.name} <span className="text-body-secondary small">({formatBytes(f.size)})</span></span>
                    <Button size="sm" variant="outline-danger" onClick={() => setFiles((l) => l.filter((_, j) => j !== i))} aria-label={`Remover ${f.name}`}>
                      Remover
                    </Button>
                  </ListGroup.Item>
                ))}
              </ListGroup>
              <div className="d-flex flex-wrap justify-content-between align-items-center mt-2 small">
                <span data-testid="bulk-total">
                  {countOf(files.length, 'arquivo', 'arquivos')} · total {formatBytes(totalSize)}
                </span>
                <Button size="sm" variant="link" onClick={() => setFiles([])}>Limpar todos</Button>
              </div>
            </>
          )}
          <div className="mt-3 d-flex align-items-center gap-3">
            <Button onClick={() => void start()} disabled={uploading || files.length === 0} data-testid="bulk-start">
              {uploading && <Spinner size="sm" className="me-2" />}
              Iniciar conversão {files.length ? `(${files.length})` : ''}
            </Button>
            {uploading && <div className="flex-grow-1"><ProgressMeter now={sent} label="Envio dos arquivos" /></div>}
            {!uploading && files.length === 0 && <span className="small text-body-secondary" data-testid="bulk-start-hint">{CONVERSION_MESSAGES.noFilesSelected}</span>}
          </div>
        </Card.Body>
      </Card>

      <Row xs={2} md={4} className="g-3 mb-3">
        <Col><StatCard label="Concluídas" value={counts.completed} variant="success" testId="bulk-count-completed" /></Col>
        <Col><StatCard label="Processando" value={counts.processing} variant="primary" testId="bulk-count-processing" /></Col>
        <Col><StatCard label="Na Fila" value={counts.queued} variant="info" testId="bulk-count-queued" /></Col>
        <Col><StatCard label="Falhadas" value={counts.failed} variant="danger" testId="bulk-count-failed" /></Col>
      </Row>

      {items.length > 0 && (
        <Card>
          <Card.Header className="d-flex justify-content-between align-items-center">
            <h2 className="h6 mb-0">Conversões</h2>
            <Button size="sm" variant="outline-secondary" onClick={() => setItems((l) => l.filter((c) => isActiveConversionStatus(c.status)))} disabled={items.every((c) => isActiveConversionStatus(c.status))}>
              Limpar concluídas
            </Button>
          </Card.Header>
          <ListGroup variant="flush" data-testid="bulk-items">
            {items.map((c) => {
              const s = BULK_STATUS[c.status] ?? BULK_STATUS.pending!;
              return (
                <ListGroup.Item key={c.id} data-testid={`bulk-item-${c.fileName}`} data-status={c.status}>
                  <div className="d-flex flex-wrap justify-content-between align-items-center gap-2">
                    <div className="text-break">
                      <strong>{c.fileName}</strong> <span className="small text-body-secondary">({formatBytes(c.fileSize)})</span>
                    </div>
                    <div className="d-flex align-items-center gap-2">
                      {c.status === 'queued' && c.queuePosition ? <span className="small text-body-secondary">posição {c.queuePosition}</span> : null}
                      <Badge bg={s.bg} data-testid="bulk-item-status">{s.label}</Badge>
                    </div>
                  </div>
                  <div className="mt-2"><ProgressMeter now={c.progress} status={c.status} label={`Progresso de ${c.fileName}`} /></div>
                  {c.status === 'failed' && <div className="small text-danger mt-1">{c.error ?? 'Falha no processamento do arquivo'}</div>}
                  {c.status === 'completed' && c.canDownload && (
                    <div className="mt-2">
                      <DownloadButton conversionId={c.id} size="sm" compact failureMessage={ADMIN_MESSAGES.downloadFailed} />
                    </div>
                  )}
                  <ItemLogs item={c} />
                </ListGroup.Item>
              );
            })}
          </ListGroup>
        </Card>
      )}
    </>
  );
}
