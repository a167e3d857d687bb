/**
 * Admin › Conversões: 'Publicações no Google Play' — every customer's publications, newest
 * first (who, when, file, app, track, versionCode, status and Play's refusal), each linking to
 * its conversion's page.
 */
import { useEffect, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import { Link } from 'react-router-dom';
import { PLAY_RELEASE_STATUS_LABELS, PLAY_TRACK_LABELS, PUBLICATION_STATUS_LABELS, type AdminPublication } from '@aabify/shared';
import { playApi } from '../api/play';
import { DataList } from '../components/DataList';
import { PageList } from '../components/PageList';
import { formatDateTime } from '../lib/format';

export function PublicationsList() {
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ publications: AdminPublication[]; totalPages: number; page: number } | null>(null);
  useEffect(() => {
    let live = true;
    playApi.adminList({ page, limit: 10 }).then(
      (r) => live && setData(r),
      () => live && setData({ publications: [], totalPages: 1, page }),
    );
    return () => {
      live = false;
    };
  }, [page]);
  return (
    <Card className="mb-3" data-testid="admin-publications">
      <Card.Header as="h2" className="h6 mb-0">
        Publicações no Google Play
      </Card.Header>
      <Card.Body>
        <DataList<AdminPublication>
          items={data ? data.publications : null}
          rowKey={(p) => p.id}
          testId="admin-publications-table"
          caption="Publicações no Google Play"
          empty="Nenhuma publicação ainda"
          rowProps={(p) => ({ 'data-testid': `admin-publication-${p.id}` })}
          columns={[
            { key: 'file', header: 'Arquivo', primary: true, render: (p) => <Link to={`/conversions/${p.conversionId}`}>{p.fileName ?? p.conversionId}</Link> },
            { key: 'user', header: 'Usuário', render: (p) => p.userEmail ?? '—' },
            { key: 'app', header: 'App', render: (p) => <code>{p.packageName}</code> },
            { key: 'track', header: 'Faixa', render: (p) => `${PLAY_TRACK_LABELS[p.track] ?? p.track} · ${PLAY_RELEASE_STATUS_LABELS[p.releaseStatus]}` },
            { key: 'version', header: 'versionCode', render: (p) => p.versionCode ?? '—' },
            {
              key: 'status',
              header: 'Status',
              render: (p) => (
                <>
                  <Badge bg={p.status === 'completed' ? 'success' : p.status === 'failed' ? 'danger' : 'info'}>{PUBLICATION_STATUS_LABELS[p.status]}</Badge>
                  {p.errorCode && <div className="small text-danger-emphasis">{p.errorCode}</div>}
                </>
              ),
            },
            { key: 'created', header: 'Quando', className: 'text-nowrap small', render: (p) => formatDateTime(p.createdAt) },
          ]}
        />
        {data && data.totalPages > 1 && <PageList page={data.page} totalPages={data.totalPages} onChange={setPage} />}
      </Card.Body>
    </Card>
  );
}
