import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import { Link } from 'react-router-dom';
import type { OperatorWarning } from '@aabify/shared';
import { api } from '../api/client';

/** The admin dashboard's list of what stops the shop (GET /admin/dashboard/warnings), each with what to do. */
export function OperatorWarnings() {
  const [warnings, setWarnings] = useState<OperatorWarning[]>([]);
  useEffect(() => {
    let live = true;
    api.get<{ warnings: OperatorWarning[] }>('/admin/dashboard/warnings', { quiet: true }).then(
      (r) => live && setWarnings(r.warnings),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  if (warnings.length === 0) return null;
  return (
    <div data-testid="operator-warnings" className="mb-3">
      {warnings.map((w) => (
        <Alert key={w.code} variant="warning" data-testid={`operator-warning-${w.code}`} className="mb-2">
          <strong>{w.title}.</strong> {w.problem} <span className="d-block mt-1">{w.link ? <Link to={w.link}>{w.action}</Link> : w.action}</span>
        </Alert>
      ))}
    </div>
  );
}
