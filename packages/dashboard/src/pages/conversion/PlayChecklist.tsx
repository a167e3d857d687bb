import ListGroup from 'react-bootstrap/ListGroup';
import type { PlayCheck, PlayCheckStatus } from '@aabify/shared';
import { countOf } from '@aabify/shared';
import { Icon, type IconName } from '../../components/Icon';

const LOOK: Record<PlayCheckStatus, { icon: IconName; tone: string; label: string }> = {
  blocker: { icon: 'x-circle-fill', tone: 'danger', label: 'Impede a publicação' },
  warning: { icon: 'exclamation-triangle-fill', tone: 'warning', label: 'Atenção' },
  ok: { icon: 'check-circle-fill', tone: 'success', label: 'OK' },
};

/** 'Antes de enviar ao Google Play': what Play would refuse or warn about, each with what to do. */
export function PlayChecklist({ checks }: { checks: readonly PlayCheck[] }) {
  if (checks.length === 0) return null;
  const blockers = checks.filter((c) => c.status === 'blocker').length;
  const warnings = checks.filter((c) => c.status === 'warning').length;
  const summary =
    blockers + warnings === 0
      ? 'Tudo certo para enviar ao Google Play.'
      : [blockers ? countOf(blockers, 'item impede', 'itens impedem') + ' a publicação' : '', warnings ? countOf(warnings, 'alerta', 'alertas') : ''].filter(Boolean).join(' · ');
  return (
    <section className="mb-3" aria-labelledby="play-checklist-title" data-testid="play-checklist">
      <h3 className="h6 mb-1" id="play-checklist-title">
        Antes de enviar ao Google Play
      </h3>
      <p className="small text-body-secondary mb-2" data-testid="play-checklist-summary">
        {summary}
      </p>
      <ListGroup>
        {checks.map((c) => {
          const look = LOOK[c.status];
          return (
            <ListGroup.Item key={c.code} className="d-flex gap-2 align-items-start" data-testid="play-check" data-code={c.code} data-status={c.status}>
              <Icon name={look.icon} className={`text-${look.tone}-emphasis mt-1`} label={look.label} />
              {/* Titles name library paths and class names: long words that must wrap, not overflow. */}
              <div className="min-w-0 text-break">
                <div className={c.status === 'ok' ? '' : 'fw-semibold'}>{c.title}</div>
                {c.action && <div className="small text-body-secondary">{c.action}</div>}
              </div>
            </ListGroup.Item>
          );
        })}
      </ListGroup>
    </section>
  );
}
