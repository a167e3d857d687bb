import { useCallback, useEffect, useMemo, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { Link, useSearchParams } from 'react-router-dom';
import { ADMIN_LIMITS, countOf, formatBytes, formatNumber, isActiveConversionStatus, type AdminConversion, type AdminConversionListResponse, type ConversionUpdate } from '@aabify/shared';
import { adminApi } from '../api/admin';
import { ActionMenu } from '../components/ActionMenu';
import { DataList } from '../components/DataList';
import { Icon } from '../components/Icon';
import { KindBadge } from '../components/KindBadge';
import { PageHeader } from '../components/PageHeader';
import { ProgressMeter } from '../components/ProgressMeter';
import { Truncate } from '../components/Truncate';
import { CONVERSION_STATUSES, HISTORY_STATUS_LABELS, STATUS_VARIANTS, clampProgress } from '../lib/conversion';
import { formatDateTime } from '../lib/format';
import { toast } from '../stores/toasts';
import { useKeyedState } from '../lib/useKeyedState';
import { ConfirmModal, PageList, failureText, useDebounced, useLiveConversions } from './common';
import { PublicationsList } from './PublicationsList';

/** One live message applied to an admin list row. */
export function applyToRow(row: AdminConversion, u: ConversionUpdate): AdminConversion {
  const next = { ...row };
  if (u.type === 'progress') {
    next.progress = clampProgress(u.progress ?? row.progress);
    if (row.status === 'queued' || row.status === 'pending') next.status = 'processing';
  } else if (u.type === 'status_change') {
    if (u.status) next.status = u.status;
    if (u.progress !== undefined) next.progress = clampProgress(u.progress);
  } else if (u.type === 'queue_position') {
    if (u.position !== undefined) next.queuePosition = u.position;
    if (u.status) next.status = u.status;
  } else if (u.type === 'completed') {
    next.status = 'completed';
    next.progress = 100;
    next.canDownload = u.canDownload ?? true;
  } else if (u.type === 'error') {
    next.status = 'failed';
    next.error = u.error ?? u.message ?? null;
  } else return row;
  return next;
}

/** Every conversion (docs/admin.md): status filter, 400 ms debounced search, page sizes, live rows, delete. */
export default function ConversionsPage() {
  const [params] = useSearchParams();
  const userId = params.get('userId') ?? undefined;
  const [limit, setLimit] = useState<number>(ADMIN_LIMITS.conversionDefaultPageSize);
  const [status, setStatus] = useState('');
  const [searchText, setSearchText] = useState('');
  const search = useDebounced(searchText.trim(), ADMIN_LIMITS.searchDebounceMs);
  const [data, setData] = useState<AdminConversionListResponse | null>(null);
  const [deleting, setDeleting] = useState<AdminConversion | null>(null);
  const [busy, setBusy] = useState(false);

  const [page, setPage] = useKeyedState(JSON.stringify([search, status, limit]), 1);

  const load = useCallback(
    (signal?: AbortSignal) =>
      adminApi.conversions({ page, limit, status, search, userId }, signal).then(setData, (e: unknown) => {
        if (!signal?.aborted) toast.error(failureText(e, 'Erro ao carregar conversões'));
      }),
    [page, limit, status, search, userId],
  );
  useEffect(() => {
    const ctrl = new AbortController();
    void load(ctrl.signal);
    return () => ctrl.abort();
  }, [load]);

  const liveIds = useMemo(() => (data?.conversions ?? []).filter((c) => isActiveConversionStatus(c.status)).map((c) => c.id), [data]);
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
      <PageHeader title="Conversões" subtitle={userId ? 'Conversões de um cliente' : 'Todas as conversões; abra uma para ver status e logs (suporte)'} />
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
      <DataList<AdminConversion>
        items={data ? data.conversions : null}
        rowKey={(c) => c.id}
        testId="conversions-table"
        caption="Conversões"
        empty="Nenhuma conversão encontrada"
        rowProps={(c) => ({ 'data-testid': `conversion-row-${c.id}` })}
        columns={[
          {
            key: 'file',
            header: 'Arquivo',
            primary: true,
            render: (c) => (
              <>
                <Link to={`/conversions/${c.id}`} className="text-break-word" data-testid="conversion-open">
                  {c.fileName}
                </Link>
                {c.error && <div className="small text-danger-emphasis">{c.error}</div>}
              </>
            ),
          },
          { key: 'kind', header: 'Tipo', className: 'text-nowrap', render: (c) => <KindBadge kind={c.kind} /> },
          { key: 'user', header: 'Usuário', render: (c) => (c.user?.email ? <Truncate text={c.user.email} max="220px" /> : '—') },
          {
            key: 'status',
            header: 'Status',
            render: (c) => (
              <>
                <Badge bg={STATUS_VARIANTS[c.status]} text={c.status === 'queued' ? 'dark' : undefined} data-testid="conversion-status">{HISTORY_STATUS_LABELS[c.status]}</Badge>
                {c.status === 'queued' && c.queuePosition ? <div className="small text-body-secondary">posição {formatNumber(c.queuePosition)}</div> : null}
                {c.status === 'processing' && c.queuePosition === 0 ? <div className="small text-body-secondary">em processamento</div> : null}
              </>
            ),
          },
          { key: 'progress', header: 'Progresso', render: (c) => <div style={{ minWidth: 140 }}><ProgressMeter now={c.progress} status={c.status} label={`Progresso de ${c.fileName}`} /></div> },
          { key: 'size', header: 'Tamanho', className: 'text-nowrap', render: (c) => formatBytes(c.fileSize) },
          { key: 'created', header: 'Criada em', className: 'text-nowrap small', render: (c) => formatDateTime(c.createdAt) },
        ]}
        actions={(c) => (
          <>
            <Link to={`/conversions/${c.id}`} className="btn btn-sm btn-outline-primary" aria-label={`Abrir a conversão ${c.fileName}`}>
              <Icon name="eye" className="me-1" />
              Abrir
            </Link>
            <ActionMenu label={`Mais ações para ${c.fileName}`} actions={[{ label: 'Excluir', icon: 'trash', danger: true, onSelect: () => setDeleting(c) }]} />
          </>
        )}
      />
      {data && (
        <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-3">
          <span className="small text-body-secondary">
            {countOf(data.total, 'conversão', 'conversões')} · página {formatNumber(data.page)} de {formatNumber(data.totalPages)}
          </span>
          <PageList page={data.page} totalPages={data.totalPages} onChange={setPage} />
        </div>
      )}
      <PublicationsList />
      <ConfirmModal show={deleting !== null} title="Excluir conversão" confirmLabel="Excluir" busy={busy} onConfirm={() => void remove()} onHide={() => setDeleting(null)}>
        Excluir a conversão de <strong>{deleting?.fileName}</strong>? Os arquivos e os logs são apagados; uma conversão em andamento é cancelada e o crédito devolvido.
      </ConfirmModal>
    </>
  );
}
