/**
 * 'Auditoria' (/admin/audit): the append-only audit trail — every admin action and every
 * security event of the accounts, newest first — filtered by who, what, on what, from where and
 * when; 'Ver' shows one event's before and after; 'Exportar CSV' downloads the filtered set (the
 * export is itself recorded). Nothing here changes or deletes an event: no API can. See
 * docs/admin.md, "Auditoria".
 */
import { Fragment, useCallback, useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Row from 'react-bootstrap/Row';
import Table from 'react-bootstrap/Table';
import {
  ADMIN_LIMITS,
  AUDIT_ACTIONS,
  AUDIT_ACTION_CODES,
  AUDIT_AREAS,
  AUDIT_LIMITS,
  AUDIT_MESSAGES,
  AUDIT_TARGET_LABELS,
  AUDIT_TARGET_TYPES,
  auditActionLabel,
  describeUserAgent,
  type AuditEventDetail,
  type AuditEventJson,
  type AuditEventListResponse,
  type AuditTargetType,
} from '@aabify/shared';
import { auditApi, type AuditFilter } from '../api/audit';
import { DataList } from '../components/DataList';
import { Icon } from '../components/Icon';
import { PageHeader } from '../components/PageHeader';
import { Truncate } from '../components/Truncate';
import { auditChangeRows, auditDateRange, auditValueText } from '../lib/audit';
import { formatDateTime } from '../lib/format';
import { useKeyedState } from '../lib/useKeyedState';
import { toast } from '../stores/toasts';
import { PageList, failureText, useDebounced } from './common';

const targetLabel = (type: string) => AUDIT_TARGET_LABELS[type as AuditTargetType] ?? type;

function Actor({ event }: { event: AuditEventJson }) {
  if (!event.actor.id) return <span className="text-body-secondary">{event.action.startsWith('auth.') ? 'Não identificado' : 'Sistema'}</span>;
  return (
    <span className="d-inline-flex align-items-center gap-1 min-w-0">
      <Truncate text={event.actor.email ?? event.actor.id} />
      {event.actor.role === 'admin' && (
        <Badge bg="secondary" className="flex-shrink-0">
          admin
        </Badge>
      )}
    </span>
  );
}

function Target({ event }: { event: AuditEventJson }) {
  if (!event.target) return <>—</>;
  return (
    <span className="min-w-0">
      <span className="text-body-secondary small">{targetLabel(event.target.type)}</span> <Truncate text={event.target.label ?? event.target.id ?? '—'} />
    </span>
  );
}

/** The values of one side of the event, or its details, as a readable list. */
function Values({ values, testId }: { values: Record<string, unknown> | null; testId: string }) {
  if (!values || Object.keys(values).length === 0) return <p className="text-body-secondary small mb-0">—</p>;
  return (
    <dl className="row small mb-0" data-testid={testId}>
      {Object.entries(values).map(([k, v]) => (
        <Fragment key={k}>
          <dt className="col-sm-4 text-break">{k}</dt>
          <dd className="col-sm-8 text-break">{auditValueText(v)}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

function AuditEventViewer({ id, onHide }: { id: string | null; onHide(): void }) {
  // Another event starts empty.
  const [event, setEvent] = useKeyedState<AuditEventDetail | null>(id ?? '', null);
  useEffect(() => {
    if (!id) return;
    let live = true;
    auditApi.get(id).then(
      (e) => live && setEvent(e),
      (e: unknown) => toast.error(failureText(e, 'Não foi possível abrir o evento.')),
    );
    return () => {
      live = false;
    };
  }, [id, setEvent]);
  const rows = event ? auditChangeRows(event.before, event.after) : [];
  return (
    <Modal show={id !== null} onHide={onHide} size="lg" aria-labelledby="audit-viewer-title" data-testid="audit-viewer">
      <Modal.Header closeButton closeLabel="Fechar">
        <Modal.Title id="audit-viewer-title" as="h2" className="h5">
          {event ? auditActionLabel(event.action) : 'Evento'}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {event && (
          <>
            <dl className="row small mb-3">
              <dt className="col-sm-3">Quando</dt>
              <dd className="col-sm-9">{formatDateTime(event.at)}</dd>
              <dt className="col-sm-3">Código</dt>
              <dd className="col-sm-9">
                <code>{event.action}</code>
              </dd>
              <dt className="col-sm-3">Quem</dt>
              <dd className="col-sm-9 text-break" data-testid="audit-viewer-actor">
                <Actor event={event} /> {event.via && (
                  <span className="text-body-secondary">
                    ({event.via === 'api_token' ? `token de API${event.apiTokenId ? ` ${event.apiTokenId}` : ''}` : 'sessão'})
                  </span>
                )}
              </dd>
              <dt className="col-sm-3">Endereço</dt>
              <dd className="col-sm-9">{event.address ?? '—'}</dd>
              <dt className="col-sm-3">Navegador</dt>
              <dd className="col-sm-9 text-break" title={event.userAgent ?? undefined}>
                {describeUserAgent(event.userAgent) ?? '—'}
              </dd>
              <dt className="col-sm-3">Alvo</dt>
              <dd className="col-sm-9 text-break">
                <Target event={event} /> {event.target?.id && <code className="small">{event.target.id}</code>}
              </dd>
              {event.accountId && (
                <>
                  <dt className="col-sm-3">Conta afetada</dt>
                  <dd className="col-sm-9">
                    <code className="small">{event.accountId}</code>
                  </dd>
                </>
              )}
            </dl>
            <h3 className="h6">O que mudou</h3>
            {rows.length === 0 ? (
              <p className="text-body-secondary small">Nada registrado antes ou depois.</p>
            ) : (
              <Table size="sm" responsive className="small" data-testid="audit-changes">
                <thead>
                  <tr>
                    <th scope="col">Campo</th>
                    <th scope="col">Antes</th>
                    <th scope="col">Depois</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => (
                    <tr key={r.field} className={r.changed ? 'table-warning' : undefined}>
                      <th scope="row" className="fw-normal text-break">
                        {r.field}
                      </th>
                      <td className="text-break">{auditValueText(r.before)}</td>
                      <td className="text-break">{auditValueText(r.after)}</td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            )}
            <h3 className="h6">Detalhes</h3>
            <Values values={event.details} testId="audit-details" />
            <p className="small text-body-secondary mt-3 mb-0">Senhas, tokens e chaves nunca são registrados; segredos das configurações aparecem mascarados.</p>
          </>
        )}
      </Modal.Body>
    </Modal>
  );
}

interface FilterForm {
  actor: string;
  action: string;
  targetType: string;
  target: string;
  address: string;
  fromDay: string;
  toDay: string;
}

const EMPTY: FilterForm = { actor: '', action: '', targetType: '', target: '', address: '', fromDay: '', toDay: '' };

function toFilter(f: FilterForm): AuditFilter {
  const text = (v: string) => v.trim() || undefined;
  return {
    actor: text(f.actor),
    action: f.action || undefined,
    targetType: f.targetType || undefined,
    target: text(f.target),
    address: text(f.address),
    ...auditDateRange(f.fromDay, f.toDay),
  };
}

export default function AuditPage() {
  const [form, setForm] = useState<FilterForm>(EMPTY);
  const [data, setData] = useState<AuditEventListResponse | null>(null);
  const [viewing, setViewing] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const debounced = useDebounced(form, ADMIN_LIMITS.searchDebounceMs);
  const filterKey = JSON.stringify(toFilter(debounced));
  const rangeInvalid = Boolean(form.fromDay && form.toDay && form.toDay < form.fromDay);
  // Other filters start on their first page.
  const [page, setPage] = useKeyedState(filterKey, 1);

  const load = useCallback(
    (signal?: AbortSignal): Promise<void> => {
      if (rangeInvalid) return Promise.resolve();
      return auditApi.list(page, JSON.parse(filterKey) as AuditFilter, signal).then(setData, (e: unknown) => {
        if (!signal?.aborted) toast.error(failureText(e, 'Não foi possível carregar a auditoria.'));
      });
    },
    [page, filterKey, rangeInvalid],
  );
  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load]);

  const set = (field: keyof FilterForm) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [field]: e.target.value }));

  const exportCsv = async () => {
    setExporting(true);
    try {
      const { truncated } = await auditApi.exportCsv(toFilter(form));
      if (truncated) toast.warning(AUDIT_MESSAGES.exportTruncated(AUDIT_LIMITS.exportMaxRows));
      else toast.success('Auditoria exportada', { admin: true });
    } catch (e) {
      toast.error(failureText(e, 'Erro ao exportar a auditoria'));
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <PageHeader
        title="Auditoria"
        subtitle="O que administradores fizeram e os eventos de segurança das contas, do mais recente ao mais antigo"
        actions={
          <>
            <Button variant="outline-secondary" size="sm" onClick={() => void load()}>
              Atualizar
            </Button>
            <Button variant="primary" size="sm" onClick={() => void exportCsv()} disabled={exporting || rangeInvalid} data-testid="audit-export">
              <Icon name="download" /> Exportar CSV
            </Button>
          </>
        }
      />
      <Card className="mb-3">
        <Card.Body>
          <Form onSubmit={(e) => e.preventDefault()} aria-label="Filtros da auditoria">
            <Row className="g-2">
              <Col md={6} xl={3}>
                <Form.Label htmlFor="audit-actor" className="small mb-1">
                  Quem
                </Form.Label>
                <Form.Control id="audit-actor" type="search" placeholder="E-mail de quem fez" value={form.actor} onChange={set('actor')} maxLength={AUDIT_LIMITS.filterMaxLength} />
              </Col>
              <Col md={6} xl={3}>
                <Form.Label htmlFor="audit-action" className="small mb-1">
                  Ação
                </Form.Label>
                <Form.Select id="audit-action" value={form.action} onChange={set('action')}>
                  <option value="">Todas as ações</option>
                  {AUDIT_AREAS.map((area) => (
                    <optgroup key={area} label={area}>
                      {AUDIT_ACTION_CODES.filter((code) => AUDIT_ACTIONS[code].area === area).map((code) => (
                        <option key={code} value={code}>
                          {AUDIT_ACTIONS[code].label}
                        </option>
                      ))}
                    </optgroup>
                  ))}
                </Form.Select>
              </Col>
              <Col md={6} xl={3}>
                <Form.Label htmlFor="audit-target-type" className="small mb-1">
                  Tipo de alvo
                </Form.Label>
                <Form.Select id="audit-target-type" value={form.targetType} onChange={set('targetType')}>
                  <option value="">Todos</option>
                  {AUDIT_TARGET_TYPES.map((t) => (
                    <option key={t} value={t}>
                      {AUDIT_TARGET_LABELS[t]}
                    </option>
                  ))}
                </Form.Select>
              </Col>
              <Col md={6} xl={3}>
                <Form.Label htmlFor="audit-target" className="small mb-1">
                  Alvo
                </Form.Label>
                <Form.Control id="audit-target" type="search" placeholder="Nome, e-mail ou id" value={form.target} onChange={set('target')} maxLength={AUDIT_LIMITS.filterMaxLength} />
              </Col>
              <Col md={4} xl={3}>
                <Form.Label htmlFor="audit-address" className="small mb-1">
                  Endereço
                </Form.Label>
                <Form.Control id="audit-address" type="search" placeholder="IP (ou parte)" value={form.address} onChange={set('address')} maxLength={AUDIT_LIMITS.filterMaxLength} />
              </Col>
              <Col md={4} xl={3}>
                <Form.Label htmlFor="audit-from" className="small mb-1">
                  De
                </Form.Label>
                <Form.Control id="audit-from" type="date" value={form.fromDay} onChange={set('fromDay')} />
              </Col>
              <Col md={4} xl={3}>
                <Form.Label htmlFor="audit-to" className="small mb-1">
                  Até
                </Form.Label>
                <Form.Control id="audit-to" type="date" value={form.toDay} onChange={set('toDay')} isInvalid={rangeInvalid} />
                <Form.Control.Feedback type="invalid">{AUDIT_MESSAGES.rangeInvalid}</Form.Control.Feedback>
              </Col>
              <Col md={12} xl={3} className="d-flex align-items-end">
                <Button variant="outline-secondary" onClick={() => setForm(EMPTY)} disabled={JSON.stringify(form) === JSON.stringify(EMPTY)} data-testid="audit-clear">
                  Limpar filtros
                </Button>
              </Col>
            </Row>
          </Form>
        </Card.Body>
      </Card>
      {data && (
        <p className="small text-body-secondary" data-testid="audit-total">
          {data.pagination.total === 1 ? '1 evento' : `${data.pagination.total.toLocaleString('pt-BR')} eventos`}
        </p>
      )}
      <DataList<AuditEventJson>
        items={data?.events ?? null}
        rowKey={(e) => e.id}
        testId="audit-list"
        rowTestId="audit-row"
        caption="Eventos da auditoria"
        empty="Nenhum evento com estes filtros."
        columns={[
          { key: 'action', header: 'Ação', primary: true, render: (e) => <span data-testid="audit-row-action">{auditActionLabel(e.action)}</span> },
          { key: 'at', header: 'Quando', className: 'text-nowrap', render: (e) => formatDateTime(e.at) },
          { key: 'actor', header: 'Quem', render: (e) => <Actor event={e} /> },
          { key: 'target', header: 'Alvo', render: (e) => <Target event={e} /> },
          { key: 'address', header: 'Endereço', className: 'text-nowrap', render: (e) => e.address ?? '—' },
        ]}
        actions={(e) => (
          <Button size="sm" variant="outline-primary" onClick={() => setViewing(e.id)} aria-label={`Ver evento: ${auditActionLabel(e.action)}`}>
            Ver
          </Button>
        )}
      />
      {rangeInvalid && <Alert variant="warning">{AUDIT_MESSAGES.rangeInvalid}</Alert>}
      {data && <PageList page={page} totalPages={data.pagination.pages} onChange={setPage} />}
      <AuditEventViewer id={viewing} onHide={() => setViewing(null)} />
    </>
  );
}
