import { useCallback, useEffect, useMemo, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import ProgressBar from 'react-bootstrap/ProgressBar';
import Table from 'react-bootstrap/Table';
import { ADMIN_LIMITS, type AdminConversion, type AdminConversionListResponse } from '@aabify/shared';
import { adminApi } from '../api/admin';
import { Loading } from '../components/Loading';
import { CONVERSION_STATUSES, HISTORY_STATUS_LABELS, STATUS_VARIANTS, clampProgress, isConversionStatus, type ConversionUpdate } from '../lib/conversion';
import { formatBytes, formatDateTime } from '../lib/format';
import { toast } from '../stores/toasts';
import { ConfirmModal, PageList, failureText, useDebounced, useLiveConversions } from './common';

/** The statuses whose rows follow live updates. */
const LIVE = new Set(['pending', 'queued', 'processing']);

/** One live message applied to an admin list row (spec §4 "Live events"). */
export function applyToRow(row: AdminConversion, u: ConversionUpdate): AdminConversion {
  const next = { ...row };
  if (u.type === 'progress') {
    next.progress = clampProgress(u.progress ?? row.progress);
    if (row.status === 'queued' || row.status === 'pending') next.status = 'processing';
  } else if (u.type === 'status_change') {
    if (isConversionStatus(u.status)) next.status = u.status;
    if (u.progress !== undefined) next.progress = clampProgress(u.progress);
  } else if (u.type === 'queue_position') {
    const p = u.position ?? u.queuePosition;
    if (p !== undefined) next.queuePosition = p;
    if (isConversionStatus(u.status)) next.status = u.status;
  } else if (u.type === 'completed') {
    next.status = 'completed';
    next.progress = 100;
    next.canDownload = u.canDownload ?? true;
  } else if (u.type === 'error' || u.type === 'failed') {
    next.status = 'failed';
    next.error = u.error ?? u.message ?? null;
  } else return row;
  return next;
}

/** Spec §2.8: every conversion, status filter, 400 ms debounced search, page sizes, live rows, delete. */
export default function ConversionsPage() {
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<number>(ADMIN_LIMITS.conversionDefaultPageSize);
  const [status, setStatus] = useState('');
  const [searchText, setSearchText] = useState('');
  const search = useDebounced(searchText.trim(), ADMIN_LIMITS.searchDebounceMs);
  const [data, setData] = useState<AdminConversionListResponse | null>(null);
  const [deleting, setDeleting] = useState<AdminConversion | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => setPage(1), [search, status, limit]);

  const load = useCallback(
    async (signal?: AbortSignal) => {
      try {
        setData(await adminApi.conversions({ page, limit, status, search }, signal));
      } catch (e) {
        if (!signal?.aborted) toast.error(failureText(e, 'Erro ao carregar conversões'));
      }
    },
    [page, limit, status, search],
  );
  useEffect(() => {
    const ctrl = new AbortController();
    void load(ctrl.signal);
    return () => ctrl.abort();
  }, [load]);

  const liveIds = useMemo(() => (data?.conversions ?? []).filter((c) => LIVE.has(c.status)).map((c) => c.id), [data]);
  useLiveConversions(liveIds, (u) => {
    setData((d) => (d ? { ...d, conversions: d.conversions.map((c) => (c.id === u.conversionId ? applyToRow(c, u) : c)) } : d));
  });

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      const r = await adminApi.deleteConversion(deleting.id);
      toast.success(r.message, { admin: true });
      await load();
    } catch (e) {
      toast.error(failureText(e, 'Erro ao excluir conversão'));
    } finally {
      setBusy(false);
      setDeleting(null);
    }
  };

  return (
    <>
      <h1 className="h3 mb-3">Conversões</h1>
      <Card className="mb-3">
        <Card.Body className="row g-2 align-items-end">
          <div className="col-md-6">
            <Form.Label htmlFor="conversions-search">Buscar</Form.Label>
            <Form.Control id="conversions-search" type="search" placeholder="Nome do arquivo ou email" value={searchText} onChange={(e) => setSearchText(e.target.value)} />
          </div>
          <div className="col-md-3">
            <Form.Label htmlFor="conversions-status">Status</Form.Label>
            <Form.Select id="conversions-status" value={status} onChange={(e) => setStatus(e.target.value)}>
              <option value="">Todos</option>
              {CONVERSION_STATUSES.map((s) => <option key={s} value={s}>{HISTORY_STATUS_LABELS[s]}</option>)}
            </Form.Select>
          </div>
          <div className="col-md-3">
            <Form.Label htmlFor="conversions-limit">Por página</Form.Label>
            <Form.Select id="conversions-limit" value={limit} onChange={(e) => setLimit(Number(e.target.value))}>
              {ADMIN_LIMITS.conversionPageSizes.map((n) => <option key={n} value={n}>{n}</option>)}
            </Form.Select>
          </div>
        </Card.Body>
      </Card>
      {!data ? (
        <Loading />
      ) : (
        <Card>
          <Table responsive hover className="mb-0 align-middle" data-testid="conversions-table">
            <thead>
              <tr>
                <th>Arquivo</th>
                <th>Usuário</th>
                <th>Status</th>
                <th style={{ minWidth: 140 }}>Progresso</th>
                <th>Tamanho</th>
                <th>Criada em</th>
                <th className="text-end">Ações</th>
              </tr>
            </thead>
            <tbody>
              {data.conversions.length === 0 && (
                <tr><td colSpan={7} className="text-center text-body-secondary">Nenhuma conversão encontrada</td></tr>
              )}
              {data.conversions.map((c) => (
                <tr key={c.id} data-testid={`conversion-row-${c.id}`}>
                  <td className="text-break">{c.fileName}{c.error && <div className="small text-danger">{c.error}</div>}</td>
                  <td className="text-break">{c.user?.email ?? '—'}</td>
                  <td>
                    <Badge bg={STATUS_VARIANTS[c.status]} data-testid="conversion-status">{HISTORY_STATUS_LABELS[c.status]}</Badge>
                    {c.status === 'queued' && c.queuePosition ? <div className="small text-body-secondary">posição {c.queuePosition}</div> : null}
                    {c.status === 'processing' && c.queuePosition === 0 ? <div className="small text-body-secondary">em processamento</div> : null}
                  </td>
                  <td><ProgressBar now={c.progress} label={`${c.progress}%`} aria-label={`Progresso de ${c.fileName}`} /></td>
                  <td>{formatBytes(c.fileSize)}</td>
                  <td>{formatDateTime(c.createdAt)}</td>
                  <td className="text-end">
                    <Button size="sm" variant="outline-danger" onClick={() => setDeleting(c)}>Excluir</Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
          <Card.Footer className="d-flex flex-wrap justify-content-between align-items-center gap-2">
            <span className="small text-body-secondary">{data.total} conversão(ões) · página {data.page} de {data.totalPages}</span>
            <PageList page={data.page} totalPages={data.totalPages} onChange={setPage} />
          </Card.Footer>
        </Card>
      )}
      <ConfirmModal show={deleting !== null} title="Excluir conversão" confirmLabel="Excluir" busy={busy} onConfirm={() => void remove()} onHide={() => setDeleting(null)}>
        Excluir a conversão de <strong>{deleting?.fileName}</strong>? Os arquivos e os logs são apagados; uma conversão em andamento é cancelada e o crédito devolvido.
      </ConfirmModal>
    </>
  );
}
