import { useEffect, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import Spinner from 'react-bootstrap/Spinner';

interface Health {
  status: 'ok' | 'degraded';
  version: string;
  checks: { database: boolean; queue: boolean };
}

function Check({ ok, label }: { ok: boolean; label: string }) {
  return (
    <li className="d-flex justify-content-between align-items-center py-1">
      <span>{label}</span>
      <Badge bg={ok ? 'success' : 'danger'}>{ok ? 'OK' : 'Falha'}</Badge>
    </li>
  );
}

/** Service status: what /api/health says, in words. */
export function HealthPage() {
  const [health, setHealth] = useState<Health>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    fetch('/api/health')
      .then(async (r) => setHealth((await r.json()) as Health))
      .catch(() => setError('Não foi possível consultar o servidor.'));
  }, []);
  return (
    <Card className="mx-auto" style={{ maxWidth: 480 }}>
      <Card.Body>
        <Card.Title as="h1" className="h4">Status do serviço</Card.Title>
        {error && <p className="text-danger" role="alert">{error}</p>}
        {!health && !error && <Spinner animation="border" size="sm" role="status" aria-label="Carregando" />}
        {health && (
          <>
            <p data-testid="health-status">
              {health.status === 'ok' ? 'Tudo funcionando.' : 'Serviço com problemas.'}{' '}
              <small className="text-body-secondary">versão {health.version}</small>
            </p>
            <ul className="list-unstyled mb-0">
              <Check ok={health.checks.database} label="Banco de dados" />
              <Check ok={health.checks.queue} label="Fila de conversões" />
            </ul>
          </>
        )}
      </Card.Body>
    </Card>
  );
}
