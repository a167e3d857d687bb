/**
 * /account/activity — 'Atividade da conta': the account's own security log, newest first —
 * sign-ins and refused attempts, sign-outs, password and e-mail events, API tokens, the upload
 * key and the Google Play key — with the address and browser each came from, so an owner can
 * spot what was not them. What an administrator did shows as such (docs/accounts.md).
 */
import { useCallback, useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import type { AccountActivityJson, AccountActivityResponse } from '@aabify/shared';
import { auditApi } from '../api/audit';
import { DataList } from '../components/DataList';
import { PageHeader } from '../components/PageHeader';
import { PageList } from '../components/PageList';
import { Truncate } from '../components/Truncate';
import { formatDateTime } from '../lib/format';

export const ACCOUNT_ACTIVITY_TEXTS = {
  title: 'Atividade da conta',
  intro: 'Entradas na conta, senhas, e-mail, tokens de API e chaves: de onde e com qual navegador cada coisa aconteceu.',
  advice: 'Não reconhece uma entrada ou uma alteração? Altere sua senha, encerre as sessões em "Sair de todos os dispositivos" e revogue os tokens de API que não reconhecer.',
  empty: 'Nenhuma atividade registrada ainda.',
  loadError: 'Não foi possível carregar a atividade da conta.',
  byAdmin: 'por um administrador',
} as const;

export default function AccountActivityPage() {
  const [page, setPage] = useState(1);
  const [data, setData] = useState<AccountActivityResponse | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(
    () =>
      auditApi.accountActivity(page).then(
        (answer) => {
          setData(answer);
          setFailed(false);
        },
        () => setFailed(true),
      ),
    [page],
  );
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <>
      <PageHeader
        title={ACCOUNT_ACTIVITY_TEXTS.title}
        subtitle={ACCOUNT_ACTIVITY_TEXTS.intro}
        actions={
          <Button variant="outline-secondary" size="sm" onClick={() => void load()}>
            Atualizar
          </Button>
        }
      />
      <Alert variant="info" className="small">
        {ACCOUNT_ACTIVITY_TEXTS.advice}
      </Alert>
      {failed && <Alert variant="danger">{ACCOUNT_ACTIVITY_TEXTS.loadError}</Alert>}
      <DataList<AccountActivityJson>
        items={data?.events ?? (failed ? [] : null)}
        rowKey={(e) => e.id}
        testId="activity-list"
        rowTestId="activity-row"
        caption={ACCOUNT_ACTIVITY_TEXTS.title}
        empty={ACCOUNT_ACTIVITY_TEXTS.empty}
        columns={[
          {
            key: 'label',
            header: 'O que aconteceu',
            primary: true,
            render: (e) => (
              <span>
                {e.label}{' '}
                {e.byAdmin && (
                  <Badge bg="secondary" className="fw-normal">
                    {ACCOUNT_ACTIVITY_TEXTS.byAdmin}
                  </Badge>
                )}
              </span>
            ),
          },
          { key: 'at', header: 'Quando', className: 'text-nowrap', render: (e) => formatDateTime(e.at) },
          { key: 'address', header: 'Endereço', className: 'text-nowrap', render: (e) => e.address ?? '—' },
          { key: 'device', header: 'Navegador', render: (e) => (e.device ? <Truncate text={e.device} /> : '—') },
        ]}
      />
      {data && <PageList page={page} totalPages={data.pagination.pages} onChange={setPage} />}
    </>
  );
}
