/** Page buttons shared by the user and admin lists. */
import Pagination from 'react-bootstrap/Pagination';
import { pageWindow } from '@aabify/shared';

/** Page buttons; above 7 pages a window with the first and last page. */
export function PageList({ page, totalPages, onChange, label = 'Paginação', max }: { page: number; totalPages: number; onChange(p: number): void; label?: string; max?: number }) {
  if (totalPages <= 1) return null;
  const items = pageWindow(page, totalPages, max);
  return (
    <nav aria-label={label}>
      <Pagination className="mb-0 flex-wrap" data-testid="pagination">
        <Pagination.Prev disabled={page <= 1} onClick={() => onChange(page - 1)} aria-label="Página anterior" />
        {items.map((p, i) =>
          p === 'ellipsis' ? (
            <Pagination.Ellipsis key={`e${i}`} disabled />
          ) : (
            <Pagination.Item key={p} active={p === page} onClick={() => onChange(p)} aria-label={`Página ${p}`}>
              {p}
            </Pagination.Item>
          ),
        )}
        <Pagination.Next disabled={page >= totalPages} onClick={() => onChange(page + 1)} aria-label="Próxima página" />
      </Pagination>
    </nav>
  );
}
