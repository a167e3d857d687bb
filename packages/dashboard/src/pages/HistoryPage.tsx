import { useEffect, useMemo, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Row from 'react-bootstrap/Row';
import { Link } from 'react-router-dom';
import { APKS_OUTPUT_TEXTS, conversionStepTag, countOf, formatBytes, formatNumber, isDeviceSet, type HistorySortField } from '@aabify/shared';
import { conversionApi, type HistoryResponse } from '../api/conversions';
import { DownloadButton } from '../components/DownloadButton';
import { KindBadge } from '../components/KindBadge';
import { DataList, type Column } from '../components/DataList';
import { Icon } from '../components/Icon';
import { Loading } from '../components/Loading';
import { PageHeader } from '../components/PageHeader';
import { PageList } from '../components/PageList';
import {
  apksBuilt,
  CONVERSION_STATUSES,
  HISTORY_STATUS_LABELS,
  mergeLogs,
  conversionView,
  STATUS_VARIANTS,
  type ConversionStatus,
  type ConversionView,
  type LogEntry,
} from '../lib/conversion';
import { formatDateTime } from '../lib/format';
import { LOG_LEVEL_LABELS, LOG_TEXTS, logEntriesFromAnswer } from '../lib/logs';
import { useKeyedState } from '../lib/useKeyedState';

export const HISTORY_DEFAULTS = { page: 1, limit: 10 } as const;
export const SEARCH_DEBOUNCE_MS = 400;

const SORTS: ReadonlyArray<{ value: `${HistorySortField}:${'asc' | 'desc'}`; label: string }> = [
  { value: 'createdAt:desc', label: 'Mais recentes' },
  { value: 'createdAt:asc', label: 'Mais antigas' },
  { value: 'fileName:asc', label: 'Nome (A–Z)' },
  { value: 'fileSize:desc', label: 'Maior tamanho' },
];

function LogsModal({ conversion, onHide }: { conversion: ConversionView | null; onHide(): void }) {
  // Empty (loading) again for every conversion opened.
  const [logs, setLogs] = useKeyedState<LogEntry[] | null>(conversion?.id ?? '', null);
  useEffect(() => {
    if (!conversion) return;
    let live = true;
    conversionApi
      .logs(conversion.id)
      .then((body) => {
        if (!live) return;
        setLogs(mergeLogs([], logEntriesFromAnswer(body)));
      })
      .catch(() => live && setLogs([]));
    return () => {
      live = false;
    };
  }, [conversion, setLogs]);
  return (
    <Modal show={conversion !== null} onHide={onHide} size="lg" scrollable aria-labelledby="logs-title">
      <Modal.Header closeButton closeLabel="Fechar">
        <Modal.Title id="logs-title" as="h2" className="h5 text-break">
          Logs — {conversion?.fileName}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {logs === null ? (
          <Loading />
        ) : logs.length === 0 ? (
          <p className="text-body-secondary mb-0">{LOG_TEXTS.empty}</p>
        ) : (
          <ul className="list-unstyled small font-monospace mb-0" data-testid="history-logs">
            {logs.map((l, i) => (
              <li key={`${l.timestamp}${i}`} className="border-bottom py-1">
                <span className="text-body-secondary">{formatDateTime(l.timestamp)}</span> <strong>{LOG_LEVEL_LABELS[l.level]}</strong>
                {l.step ? ` [${conversionStepTag(l.step)}]` : ''} {l.message}
              </li>
            ))}
          </ul>
        )}
      </Modal.Body>
    </Modal>
  );
}

export default function HistoryPage() {
  const [page, setPage] = useState<number>(HISTORY_DEFAULTS.page);
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<ConversionStatus | ''>('');
  const [sort, setSort] = useState<string>(SORTS[0].value);
  const [data, setData] = useState<HistoryResponse | null>(null);
  // The query whose answer (or failure) arrived last: loading while it is not the current one.
  const query = JSON.stringify([page, search, status, sort]);
  const [settled, setSettled] = useState<string | null>(null);
  const loading = settled !== query;
  const [logsOf, setLogsOf] = useState<ConversionView | null>(null);

  useEffect(() => {
    const t = setTimeout(() => {
      setSearch(searchText.trim());
      setPage(1);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [searchText]);

  useEffect(() => {
    const ctrl = new AbortController();
    const [sortBy, sortOrder] = sort.split(':') as [HistorySortField, 'asc' | 'desc'];
    conversionApi
      .history({ page, limit: HISTORY_DEFAULTS.limit, search: search || undefined, status, sortBy, sortOrder }, ctrl.signal)
      .then((r) => {
        setData(r);
        setSettled(query);
      })
      .catch(() => !ctrl.signal.aborted && setSettled(query));
    return () => ctrl.abort();
  }, [page, search, status, sort, query]);

  const rows = useMemo(() => (data ? data.conversions.map(conversionView) : null), [data]);
  const totalPages = data?.totalPages ?? 1;
  const columns: Array<Column<ConversionView>> = [
    {
      key: 'file',
      header: 'Arquivo',
      primary: true,
      render: (c) => (
        <>
          <Link to={`/conversions/${c.id}`} className="text-break-word" data-testid="history-open">
            {c.fileName}
          </Link>{' '}
          <KindBadge kind={c.kind} />
          {c.kind === 'aab-to-apks' && isDeviceSet(c) && (
            <div className="small text-body-secondary" data-testid="history-built">
              {apksBuilt(c)}
            </div>
          )}
          {c.error && <div className="small text-danger-emphasis">{c.error}</div>}
        </>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      render: (c) => (
        <Badge bg={STATUS_VARIANTS[c.status]} text={c.status === 'queued' ? 'dark' : undefined}>
          {HISTORY_STATUS_LABELS[c.status]}
        </Badge>
      ),
    },
    { key: 'size', header: 'Tamanho', className: 'text-nowrap', render: (c) => formatBytes(c.fileSize) },
    { key: 'date', header: 'Data', className: 'text-nowrap small', render: (c) => formatDateTime(c.createdAt) },
  ];
  return (
    <>
      <PageHeader
        title="Histórico de Conversões"
        actions={
          <Link to="/converter" state={{ fresh: true }} className="btn btn-primary btn-sm">
            <Icon name="plus-lg" className="me-1" />
            Nova Conversão
          </Link>
        }
      />
      <Card className="mb-3">
        <Card.Body>
          <Row className="g-2">
            <Col md={5}>
              <Form.Label htmlFor="history-search" className="small">
                Buscar
              </Form.Label>
              <Form.Control id="history-search" type="search" placeholder="Nome do arquivo" value={searchText} onChange={(e) => setSearchText(e.target.value)} />
            </Col>
            <Col xs={6} md={3}>
              <Form.Label htmlFor="history-status" className="small">
                Status
              </Form.Label>
              <Form.Select
                id="history-status"
                value={status}
                onChange={(e) => {
                  setStatus(e.target.value as ConversionStatus | '');
                  setPage(1);
                }}
              >
                <option value="">Todos</option>
                {CONVERSION_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {HISTORY_STATUS_LABELS[s]}
                  </option>
                ))}
              </Form.Select>
            </Col>
            <Col xs={6} md={4}>
              <Form.Label htmlFor="history-sort" className="small">
                Ordenar por
              </Form.Label>
              <Form.Select
                id="history-sort"
                value={sort}
                onChange={(e) => {
                  setSort(e.target.value);
                  setPage(1);
                }}
              >
                {SORTS.map((s) => (
                  <option key={s.value} value={s.value}>
                    {s.label}
                  </option>
                ))}
              </Form.Select>
            </Col>
          </Row>
        </Card.Body>
      </Card>
      <DataList
        items={rows}
        loading={loading}
        columns={columns}
        rowKey={(c) => c.id}
        testId="history-table"
        rowTestId="history-row"
        caption="Suas conversões"
        empty={<span data-testid="history-empty">Nenhuma conversão encontrada.</span>}
        actions={(c) => (
          <>
            {c.status === 'completed' && c.canDownload && (
              <DownloadButton conversionId={c.id} size="sm" compact kind={c.kind} {...(c.kind === 'aab-to-apks' && isDeviceSet(c) ? { idleLabel: APKS_OUTPUT_TEXTS.download } : {})} />
            )}
            {c.status === 'completed' && c.canDownload && c.kind !== 'aab-to-apks' && (
              <Link to={`/conversions/${c.id}?publicar=1`} className="btn btn-sm btn-outline-secondary" aria-label={`Publicar ${c.fileName} no Google Play`} data-testid="history-publish">
                <Icon name="google-play" className="me-1" />
                Publicar
              </Link>
            )}
            <Button size="sm" variant="outline-secondary" onClick={() => setLogsOf(c)} aria-label={`Ver logs de ${c.fileName}`}>
              <Icon name="file-earmark-text" className="me-1" />
              Logs
            </Button>
          </>
        )}
      />
      {data && totalPages > 1 && (
        <div className="d-flex flex-wrap justify-content-between align-items-center gap-2">
          <small className="text-body-secondary">
            {countOf(data.total, 'conversão', 'conversões')} · página {formatNumber(data.page)} de {formatNumber(totalPages)}
          </small>
          <PageList page={page} totalPages={totalPages} onChange={setPage} label="Páginas do histórico" />
        </div>
      )}
      <LogsModal conversion={logsOf} onHide={() => setLogsOf(null)} />
    </>
  );
}
