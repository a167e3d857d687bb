import ProgressBar from 'react-bootstrap/ProgressBar';
import { PROGRESS_VARIANTS } from '../lib/conversion';

/**
 * A progress bar whose figure sits beside it, never inside (a 3 % bar cannot hold '3%'), in
 * the one colour of its status (finished = success everywhere).
 */
export function ProgressMeter({ now, status, label, testId, animated }: { now: number; status?: string; label: string; testId?: string; animated?: boolean }) {
  const value = Math.max(0, Math.min(100, Math.round(now)));
  return (
    <div className="d-flex align-items-center gap-2 progress-meter">
      <ProgressBar
        className="flex-grow-1"
        now={value}
        variant={PROGRESS_VARIANTS[status ?? 'processing'] ?? 'primary'}
        animated={animated}
        striped={animated}
        aria-label={label}
        data-testid={testId}
      />
      <span className="small fw-semibold text-nowrap progress-figure" aria-hidden="true">
        {value}%
      </span>
    </div>
  );
}
