/**
 * "Exportar meus dados" (Meus dados): asks for a zip of everything the service holds about the
 * account, lists the latest exports with their state, and downloads a ready one with the session.
 * The list is read again every few seconds while one is in preparation (the job takes seconds).
 */
import { useCallback, useEffect, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import {
  DATA_EXPORT_LIMITS,
  DATA_EXPORT_STATUS_LABELS,
  formatBytes,
  PRIVACY_MESSAGES,
  type DataExportJson,
  type DataExportListResponse,
  type DataExportRequestResponse,
  type DataExportStatus,
} from '@aabify/shared';
import { api, isApiRequestError } from '../../api/client';
import { downloadSignedIn } from '../../api/download';
import { formatDateTime } from '../../lib/format';
import { toast } from '../../stores/toasts';

export const DATA_EXPORT_TEXTS = {
  title: 'Exportar meus dados',
  intro: `Um arquivo .zip com tudo o que guardamos sobre a sua conta — perfil, compras, conversões e seus registros, e-mails enviados, sessões e tokens (sem senhas nem chaves). Ele fica pronto em alguns instantes, avisamos por e-mail e ele pode ser baixado aqui por ${DATA_EXPORT_LIMITS.keepDays} dias.`,
  request: 'Exportar meus dados',
  requesting: 'Pedindo…',
  download: 'Baixar',
  loadError: 'Não foi possível carregar as exportações.',
  downloaded: (name: string) => `${name} baixado.`,
  availableUntil: (when: string) => `disponível até ${when}`,
} as const;

const POLL_MS = 3000;
const VARIANT: Record<DataExportStatus, string> = { pending: 'info', ready: 'success', failed: 'danger', expired: 'secondary' };

export function DataExportCard() {
  const [exports, setExports] = useState<DataExportJson[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [asking, setAsking] = useState(false);

  const load = useCallback(
    () =>
      api.get<DataExportListResponse>('/account/exports', { quiet: true }).then(
        (answer) => {
          setExports(answer.exports);
          setFailed(false);
        },
        () => setFailed(true),
      ),
    [],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const preparing = exports?.some((e) => e.status === 'pending') ?? false;
  useEffect(() => {
    if (!preparing) return;
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [preparing, load]);

  const request = async () => {
    setAsking(true);
    try {
      const answer = await api.post<DataExportRequestResponse>('/account/exports', undefined, { quiet: true });
      toast.success(answer.message);
      setExports((list) => [answer.export, ...(list ?? [])]);
    } catch (e) {
      toast.error(isApiRequestError(e) ? (e.serverMessage ?? PRIVACY_MESSAGES.exportFailed) : PRIVACY_MESSAGES.exportFailed);
    } finally {
      setAsking(false);
    }
  };

  const download = async (item: DataExportJson) => {
    try {
      toast.success(DATA_EXPORT_TEXTS.downloaded((await downloadSignedIn(`/account/exports/${encodeURIComponent(item.id)}/file`, { fallbackName: item.filename })).name));
    } catch (e) {
      toast.error(isApiRequestError(e) ? (e.serverMessage ?? PRIVACY_MESSAGES.exportFailed) : PRIVACY_MESSAGES.exportFailed);
      void load();
    }
  };

  return (
    <Card className="mb-3" data-testid="data-export">
      <Card.Header>{DATA_EXPORT_TEXTS.title}</Card.Header>
      <Card.Body>
        <p>{DATA_EXPORT_TEXTS.intro}</p>
        <Button onClick={() => void request()} disabled={asking || preparing} data-testid="data-export-request">
          {asking ? DATA_EXPORT_TEXTS.requesting : DATA_EXPORT_TEXTS.request}
        </Button>
        {failed && <p className="text-danger mt-3 mb-0">{DATA_EXPORT_TEXTS.loadError}</p>}
        {exports && exports.length > 0 && (
          <Table responsive size="sm" className="mt-3 mb-0 align-middle" data-testid="data-export-list">
            <thead>
              <tr>
                <th scope="col">Pedida em</th>
                <th scope="col">Situação</th>
                <th scope="col">Tamanho</th>
                <th scope="col">
                  <span className="visually-hidden">Ações</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {exports.map((item) => (
                <tr key={item.id} data-testid="data-export-row" data-status={item.status}>
                  <td>{formatDateTime(item.requestedAt)}</td>
                  <td>
                    <Badge bg={VARIANT[item.status]}>{DATA_EXPORT_STATUS_LABELS[item.status]}</Badge>
                    {item.status === 'ready' && item.expiresAt && <div className="small text-body-secondary">{DATA_EXPORT_TEXTS.availableUntil(formatDateTime(item.expiresAt))}</div>}
                    {item.status === 'failed' && <div className="small text-body-secondary">{PRIVACY_MESSAGES.exportFailed}</div>}
                  </td>
                  <td>{item.size !== null ? formatBytes(item.size) : '—'}</td>
                  <td className="text-end">
                    {item.status === 'ready' && (
                      <Button size="sm" variant="outline-primary" onClick={() => void download(item)} data-testid="data-export-download">
                        {DATA_EXPORT_TEXTS.download}
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card.Body>
    </Card>
  );
}
