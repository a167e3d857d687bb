import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { SkeletonRows } from './Skeleton';
import { useMediaQuery, WIDE_QUERY } from './useMediaQuery';

export interface Column<T> {
  key: string;
  header: ReactNode;
  render(item: T): ReactNode;
  /** The card's title at phone width (one column should be). */
  primary?: boolean;
  /** Cell classes in the table (e.g. 'text-nowrap', 'text-end'). */
  className?: string;
  /** Left out of the card (already in the title, or not worth the room). */
  hideOnCard?: boolean;
}

interface DataListProps<T> {
  items: readonly T[] | null;
  columns: ReadonlyArray<Column<T>>;
  rowKey(item: T): string;
  /** The row's actions (an ActionMenu or buttons): the last table column, kept in view; the card's footer. */
  actions?: (item: T) => ReactNode;
  /** Before the first column (a selection checkbox, a drag handle). */
  lead?: { header: ReactNode; render(item: T): ReactNode };
  empty: ReactNode;
  /** True while a page loads: skeleton when nothing is shown yet, aria-busy otherwise. */
  loading?: boolean;
  testId?: string;
  rowTestId?: string;
  caption?: string;
  /** Extra props of a table row (drag and drop). */
  rowProps?: (item: T, index: number) => Record<string, unknown>;
}

/** Whether the table is wider than its scrolling box (then a cue says the table scrolls sideways). */
function useScrollsSideways(table: RefObject<HTMLTableElement | null>): boolean {
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const box = table.current?.parentElement;
    if (!box || typeof ResizeObserver === 'undefined') return;
    const measure = () => setScrolls(box.scrollWidth > box.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    if (table.current) observer.observe(table.current);
    measure();
    return () => observer.disconnect();
  });
  return scrolls;
}

/** A header cell keeps its column's alignment, not its smaller font: every header reads alike. */
function headerClassOf(cellClass: string | undefined): string | undefined {
  const kept = (cellClass ?? '').split(/\s+/).filter((c) => c.startsWith('text-'));
  return kept.length ? kept.join(' ') : undefined;
}

/**
 * Every list of the dashboard: a table from 768 px up (actions in a column that stays in view
 * while the table scrolls sideways), a stack of cards below (every field labelled, nothing
 * hidden off-screen). One component, so no list can forget its phone layout.
 */
export function DataList<T>({ items, columns, rowKey, actions, lead, empty, loading, testId, rowTestId, caption, rowProps }: DataListProps<T>) {
  const wide = useMediaQuery(WIDE_QUERY);
  const tableRef = useRef<HTMLTableElement>(null);
  const scrolls = useScrollsSideways(tableRef);
  if (items === null) return loading === false ? null : <SkeletonRows testId={testId ? `${testId}-loading` : undefined} />;
  if (items.length === 0) {
    return (
      <Card className="mb-3" data-testid={testId} data-layout="empty">
        <Card.Body className="text-center text-body-secondary" data-testid={testId ? `${testId}-empty` : undefined}>
          {empty}
        </Card.Body>
      </Card>
    );
  }
  if (!wide) {
    const primary = columns.find((c) => c.primary) ?? columns[0];
    return (
      <ul className="list-unstyled d-grid gap-2 mb-3 data-cards" aria-busy={loading || undefined} data-testid={testId} data-layout="cards" aria-label={caption}>
        {items.map((item, i) => {
          const extra = rowProps?.(item, i) ?? {};
          return (
          <li key={rowKey(item)} data-testid={rowTestId} {...extra} className={`card${extra.className ? ` ${String(extra.className)}` : ''}`}>
            <div className="card-body p-3">
              <div className="d-flex align-items-start gap-2 mb-2">
                {lead && <div>{lead.render(item)}</div>}
                <div className="fw-semibold min-w-0 flex-grow-1">{primary?.render(item)}</div>
              </div>
              <dl className="row small mb-0 g-1">
                {columns
                  .filter((c) => c !== primary && !c.hideOnCard)
                  .map((c) => (
                    <div key={c.key} className="col-12 d-flex justify-content-between gap-3 data-card-field">
                      <dt className="fw-normal text-body-secondary">{c.header}</dt>
                      <dd className="mb-0 text-end min-w-0">{c.render(item)}</dd>
                    </div>
                  ))}
              </dl>
              {actions && <div className="d-flex flex-wrap gap-2 justify-content-end mt-2 data-card-actions">{actions(item)}</div>}
            </div>
          </li>
          );
        })}
      </ul>
    );
  }
  return (
    <>
    {scrolls && (
      <p className="small text-body-secondary mb-1 text-end" data-testid={testId ? `${testId}-scroll-hint` : undefined}>
        Role a tabela para o lado para ver todas as colunas →
      </p>
    )}
    <Table ref={tableRef} responsive hover className={`align-middle data-table${scrolls ? ' data-table-scrolls' : ''}`} aria-busy={loading || undefined} data-testid={testId} data-layout="table">
      {caption && <caption className="visually-hidden">{caption}</caption>}
      <thead>
        <tr>
          {lead && <th scope="col">{lead.header}</th>}
          {columns.map((c) => (
            <th key={c.key} scope="col" className={headerClassOf(c.className)}>
              {c.header}
            </th>
          ))}
          {actions && (
            <th scope="col" className="data-actions text-end">
              Ações
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {items.map((item, i) => (
          <tr key={rowKey(item)} data-testid={rowTestId} {...(rowProps?.(item, i) ?? {})}>
            {lead && <td>{lead.render(item)}</td>}
            {columns.map((c) => (
              <td key={c.key} className={c.className}>
                {c.render(item)}
              </td>
            ))}
            {actions && (
              <td className="data-actions">
                <div className="d-flex flex-wrap gap-2 justify-content-end data-actions-buttons">{actions(item)}</div>
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </Table>
    </>
  );
}
