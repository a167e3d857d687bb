import { useEffect, useMemo, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Pagination from 'react-bootstrap/Pagination';
import Row from 'react-bootstrap/Row';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router-dom';
import type { HistorySortField } from '@aabify/shared';
import { conversionApi, logsFromAnswer, type HistoryResponse } from '../api/conversions';
import { DownloadButton } from '../components/DownloadButton';
import { Loading } from '../components/Loading';
import {
  CONVERSION_STATUSES,
  HISTORY_STATUS_LABELS,
  mergeLogs,
  normalizeConversion,
  normalizeLog,
  STATUS_VARIANTS,
  type ConversionStatus,
  type ConversionView,
  type LogEntry,
} from '../lib/conversion';
import { formatBytes, formatDateTime } from '../lib/format';
import { LOG_LEVEL_LABELS, LOG_TEXTS } from '../lib/logs';

export const HISTORY_DEFAULTS = { page: 1, limit: 10 } as const;
export const SEARCH_DEBOUNCE_MS = 400;

const SORTS: ReadonlyArray<{ value: `${HistorySortField}:${'asc' | 'desc'}`; label: string }> = [
  { value: 'createdAt:desc', label: 'Mais recentes' },
  { value: 'createdAt:asc', label: 'Mais antigas' },
  { value: 'fileName:asc', label: 'Nome (A–Z)' },
  { value: 'fileSize:desc', label: 'Maior tamanho' },
];

function LogsModal({ conversion, onHide }: { conversion: ConversionView | null; onHide(): void }) {
  const [logs, setLogs] = useState<LogEntry[] | null>(null);
  useEffect(() => {
    if (!conversion) return;
    setLogs(null);
    let live = true;
    conversionApi
      .logs(conversion.id)
      .then((body) => {
        if (!live) return;
        const entries = logsFromAnswer(body).map((l) => normalizeLog(l)).filter((l): l is LogEntry => l !== undefined);
        setLogs(mergeLogs([], entries));
      })
      .catch(() => live && setLogs([]));
    return () => {
      live = false;
    };
  }, [conversion]);
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
                {l.step ? ` [${l.step}]` : ''} {l.message}
              </li>
            ))}
          </ul>
        )}
      </Modal.Body>
    </Modal>
  );
}

/** Windowed page links: first, last and two around the current one. */
function pageItems(page: number, totalPages: number): Array<number | 'gap'> {
  const pages = new Set([1, totalPages, page - 1, page, page + 1].filter((p) => p >= 1 && p <= totalPages));
  const sorted = [...pages].sort((a, b) => a - b);
  const out: Array<number | 'gap'> = [];
  for (const p of sorted) {
    const prev = out[out.length - 1];
    if (typeof prev === 'number' && p - prev > 1) out.push('gap');
    out.push(p);
  }
  return out;
}

export default function HistoryPage() {
  const [page, setPage] = useState<number>(HISTORY_DEFAULTS.page);
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<ConversionStatus | ''>('');
  const [sort, setSort] = useState<string>(SORTS[0].value);
  const [data, setData] = useState<HistoryResponse | null>(null);
  const [loading, setLoading] = useState(true);
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
    setLoading(true);
    conversionApi
      .history({ page, limit: HISTORY_DEFAULTS.limit, search: search || undefined, status, sortBy, sortOrder }, ctrl.signal)
      .then((r) => {
        setData(r);
        setLoading(false);
      })
      .catch(() => !ctrl.signal.aborted && setLoading(false));
    return () => ctrl.abort();
  }, [page, search, status, sort]);

  const rows = useMemo(() => (data?.conversions ?? []).map((c) => normalizeConversion(c)).filter((c): c is ConversionView => c !== undefined), [data]);
  const totalPages = data?.totalPages ?? 1;
  return (
    <>
      <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-3">
        <h1 className="h3 mb-0">Histórico de Conversões</h1>
        <Link to="/converter" className="btn btn-primary btn-sm">
          Nova Conversão
        </Link>
      </div>
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
      {loading && !data ? (
        <Loading />
      ) : rows.length === 0 ? (
        <Card>
          <Card.Body className="text-center text-body-secondary" data-testid="history-empty">
            Nenhuma conversão encontrada.
          </Card.Body>
        </Card>
      ) : (
        <Table responsive hover className="align-middle" aria-busy={loading} data-testid="history-table">
          <thead>
            <tr>
              <th scope="col">Arquivo</th>
              <th scope="col">Status</th>
              <th scope="col">Tamanho</th>
              <th scope="col">Data</th>
              {/* positioned, so the hidden label stays inside the table's scroll box */}
              <th scope="col" className="position-relative">
                <span className="visually-hidden">Ações</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => (
              <tr key={c.id} data-testid="history-row">
                <td className="text-break" style={{ minWidth: 140 }}>
                  {c.fileName}
                  {c.error && <div className="small text-danger">{c.error}</div>}
                </td>
                <td>
                  <Badge bg={STATUS_VARIANTS[c.status]} text={c.status === 'queued' ? 'dark' : undefined}>
                    {HISTORY_STATUS_LABELS[c.status]}
                  </Badge>
                </td>
                <td className="text-nowrap">{formatBytes(c.fileSize)}</td>
                <td className="text-nowrap small">{formatDateTime(c.createdAt)}</td>
                <td className="text-nowrap">
                  <div className="d-flex gap-2">
                    {c.status === 'completed' && c.canDownload && <DownloadButton conversionId={c.id} size="sm" compact />}
                    <Button size="sm" variant="outline-secondary" onClick={() => setLogsOf(c)} aria-label={`Ver logs de ${c.fileName}`}>
                      Logs
                    </Button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {data && totalPages > 1 && (
        <div className="d-flex flex-wrap justify-content-between align-items-center gap-2">
          <small className="text-body-secondary">
            {data.total} conversões — página {data.page} de {totalPages}
          </small>
          <Pagination className="mb-0" aria-label="Páginas do histórico">
            <Pagination.Prev disabled={!data.hasPreviousPage} onClick={() => setPage((p) => Math.max(1, p - 1))} aria-label="Página anterior" />
            {pageItems(page, totalPages).map((p, i) =>
              p === 'gap' ? (
                <Pagination.Ellipsis key={`gap${i}`} disabled />
              ) : (
                <Pagination.Item key={p} active={p === page} onClick={() => setPage(p)}>
                  {p}
                </Pagination.Item>
              ),
            )}
            <Pagination.Next disabled={!data.hasNextPage} onClick={() => setPage((p) => p + 1)} aria-label="Próxima página" />
          </Pagination>
        </div>
      )}
      <LogsModal conversion={logsOf} onHide={() => setLogsOf(null)} />
    </>
  );
}
