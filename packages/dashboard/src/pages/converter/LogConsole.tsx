import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Card from 'react-bootstrap/Card';
import Collapse from 'react-bootstrap/Collapse';
import Form from 'react-bootstrap/Form';
import { conversionStepTag } from '@aabify/shared';
import { saveBlob } from '../../api/download';
import type { ConversionStatus, LogEntry, LogLevel } from '../../lib/conversion';
import { formatTime } from '../../lib/format';
import {
  countLogs,
  filterLogs,
  LOG_FILTERS,
  LOG_LEVEL_LABELS,
  LOG_ROW_HEIGHT,
  LOG_TEXTS,
  LOG_VIEWPORT_HEIGHT,
  logFileName,
  logsAsText,
  visibleRange,
  type LogFilter,
} from '../../lib/logs';
import { toast } from '../../stores/toasts';
import { Icon } from '../../components/Icon';

const LEVEL_BG: Record<LogLevel, { bg: string; text?: 'dark' }> = {
  info: { bg: 'info', text: 'dark' },
  success: { bg: 'success' },
  warning: { bg: 'warning', text: 'dark' },
  error: { bg: 'danger' },
};

interface LogConsoleProps {
  conversionId: string;
  status: ConversionStatus;
  logs: readonly LogEntry[];
  /** May be async (the server's log is cleared too): the button waits for it. */
  onClear(): void | Promise<void>;
}

/**
 * Collapsible console: level filters with counts, search over message and step, copy, download,
 * clear; a virtualised list of 64 px rows in a 256 px viewport that follows the latest entry.
 */
export function LogConsole({ conversionId, status, logs, onClear }: LogConsoleProps) {
  const [open, setOpen] = useState(true);
  const [autoCollapse, setAutoCollapse] = useState(false);
  const [filter, setFilter] = useState<LogFilter>('all');
  const [search, setSearch] = useState('');
  const [scrollTop, setScrollTop] = useState(0);
  const [follow, setFollow] = useState(true);
  const [clearing, setClearing] = useState(false);
  const viewport = useRef<HTMLDivElement>(null);
  const counts = useMemo(() => countLogs(logs), [logs]);
  const shown = useMemo(() => filterLogs(logs, filter, search), [logs, filter, search]);

  // With auto-collapse on, the console closes when the conversion ends (and when the switch is
  // turned on after it ended); opening it again afterwards is the user's choice.
  const collapseWhen = `${autoCollapse}|${status}`;
  const [collapseSeen, setCollapseSeen] = useState(collapseWhen);
  if (collapseSeen !== collapseWhen) {
    setCollapseSeen(collapseWhen);
    if (autoCollapse && (status === 'completed' || status === 'failed')) setOpen(false);
  }

  useLayoutEffect(() => {
    const el = viewport.current;
    if (el && follow) {
      el.scrollTop = el.scrollHeight;
      setScrollTop(el.scrollTop);
    }
  }, [shown.length, follow, open]);

  const { start, end } = visibleRange(shown.length, scrollTop);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(logsAsText(shown));
      toast.success(LOG_TEXTS.copied);
    } catch {
      toast.error(LOG_TEXTS.copyFailed);
    }
  };
  const download = () => {
    try {
      saveBlob(new Blob([logsAsText(logs, true)], { type: 'text/plain;charset=utf-8' }), logFileName(conversionId));
      toast.success(LOG_TEXTS.downloaded);
    } catch {
      toast.error(LOG_TEXTS.downloadFailed);
    }
  };

  const clear = async () => {
    setClearing(true);
    try {
      await onClear();
    } finally {
      setClearing(false);
    }
  };

  return (
    <Card className="mb-3" data-testid="log-console">
      <Card.Header className="d-flex flex-wrap align-items-center justify-content-between gap-2">
        <Button
          variant="link"
          className="p-0 text-decoration-none fw-semibold"
          onClick={() => setOpen((o) => !o)}
          aria-expanded={open}
          aria-controls="log-console-body"
        >
          <Icon name="chevron-down" className={`me-1 log-chevron${open ? '' : ' log-chevron-closed'}`} /> Logs do processo <Badge bg="secondary">{counts.all}</Badge>
        </Button>
        <Form.Check
          type="switch"
          id="log-auto-collapse"
          label="Recolher ao terminar"
          checked={autoCollapse}
          onChange={(e) => setAutoCollapse(e.target.checked)}
          className="small mb-0"
        />
      </Card.Header>
      <Collapse in={open}>
        <div id="log-console-body">
          <Card.Body>
            <div className="d-flex flex-wrap gap-2 mb-2">
              <ButtonGroup size="sm" aria-label="Filtrar por nível" className="flex-wrap">
                {LOG_FILTERS.map((f) => (
                  <Button
                    key={f.key}
                    variant={filter === f.key ? 'primary' : 'outline-secondary'}
                    onClick={() => setFilter(f.key)}
                    aria-pressed={filter === f.key}
                    data-testid={`log-filter-${f.key}`}
                  >
                    {f.label} <span className="ms-1" data-testid={`log-count-${f.key}`}>{counts[f.key]}</span>
                  </Button>
                ))}
              </ButtonGroup>
            </div>
            <div className="d-flex flex-wrap gap-2 mb-2">
              <Form.Control
                size="sm"
                type="search"
                placeholder="Buscar nos logs"
                aria-label="Buscar nos logs"
                value={search}
                onChange={(e) => setSearch(e.target.value)}
                style={{ maxWidth: 260 }}
                data-testid="log-search"
              />
              <Button size="sm" variant="outline-secondary" onClick={copy}>
                Copiar
              </Button>
              <Button size="sm" variant="outline-secondary" onClick={download}>
                Baixar
              </Button>
              <Button size="sm" variant="outline-danger" onClick={() => void clear()} disabled={clearing} data-testid="log-clear">
                Limpar
              </Button>
            </div>
            <div
              ref={viewport}
              className="log-viewport border rounded"
              style={{ height: LOG_VIEWPORT_HEIGHT }}
              role="log"
              aria-live="polite"
              aria-label="Logs da conversão"
              tabIndex={0}
              data-testid="log-viewport"
              onScroll={(e) => {
                const el = e.currentTarget;
                setScrollTop(el.scrollTop);
                setFollow(el.scrollTop + el.clientHeight >= el.scrollHeight - LOG_ROW_HEIGHT / 2);
              }}
            >
              {shown.length === 0 ? (
                <div className="p-3 text-body-secondary" data-testid="log-empty">
                  {logs.length === 0 ? LOG_TEXTS.waiting : LOG_TEXTS.noMatch}
                </div>
              ) : (
                <div style={{ height: shown.length * LOG_ROW_HEIGHT, position: 'relative' }}>
                  {shown.slice(start, end).map((l, i) => {
                    const index = start + i;
                    return (
                      <div key={`${l.id ?? ''}${l.timestamp}${index}`} className="log-row" style={{ top: index * LOG_ROW_HEIGHT }} data-testid="log-row" data-level={l.level}>
                        <div className="d-flex gap-2 align-items-center small">
                          <span className="text-body-secondary">{formatTime(l.timestamp)}</span>
                          <Badge bg={LEVEL_BG[l.level].bg} text={LEVEL_BG[l.level].text}>
                            {LOG_LEVEL_LABELS[l.level]}
                          </Badge>
                          {l.step && <span className="text-body-secondary text-truncate">[{conversionStepTag(l.step)}]</span>}
                        </div>
                        <div className="log-message">{l.message}</div>
                      </div>
                    );
                  })}
                </div>
              )}
            </div>
          </Card.Body>
        </div>
      </Collapse>
    </Card>
  );
}
