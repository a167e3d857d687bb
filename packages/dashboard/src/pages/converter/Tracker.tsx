import { Icon, type IconName } from '../../components/Icon';
import { TRACKER_STEPS, type StepState, type TrackerState } from '../../lib/tracker';

const STATE_LABELS: Record<StepState, string> = { completed: 'concluído', active: 'em andamento', failed: 'falhou', pending: 'pendente' };
const ICONS: Partial<Record<StepState, IconName>> = { completed: 'check-lg', failed: 'x-lg' };

/** The four steps: upload, validation and queue, processing, finalisation. */
export function Tracker({ state }: { state: TrackerState }) {
  return (
    <ol className="list-unstyled d-flex justify-content-between gap-2 mb-0 tracker" aria-label="Etapas da conversão" data-testid="tracker">
      {TRACKER_STEPS.map((s, i) => {
        const st = state[s.key];
        return (
          <li key={s.key} className="tracker-step text-center flex-fill" data-state={st} data-step={s.key} aria-current={st === 'active' ? 'step' : undefined}>
            <span className="tracker-dot" aria-hidden="true">
              {ICONS[st] ? <Icon name={ICONS[st]} /> : i + 1}
            </span>
            <div className="small tracker-label">{s.label}</div>
            <span className="visually-hidden">: {STATE_LABELS[st]}</span>
          </li>
        );
      })}
    </ol>
  );
}
