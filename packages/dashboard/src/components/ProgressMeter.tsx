import type { CSSProperties } from 'react';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { PROGRESS_VARIANTS } from '../lib/conversion';

/**
 * A progress bar with an accessible name on its role="progressbar" element. React-Bootstrap
 * puts a plain bar's aria-label on the outer track, which has no role; a child bar carries it.
 */
export function NamedProgressBar({ now, label, variant, animated, className, style, testId }: { now: number; label: string; variant?: string; animated?: boolean; className?: string; style?: CSSProperties; testId?: string }) {
  return (
    <ProgressBar className={className} style={style}>
      <ProgressBar now={now} variant={variant} animated={animated} striped={animated} aria-label={label} data-testid={testId} />
    </ProgressBar>
  );
}

/**
 * A progress bar whose figure sits beside it, never inside (a 3 % bar cannot hold '3%'), in
 * the one colour of its status (finished = success everywhere).
 */
export function ProgressMeter({ now, status, label, testId, animated }: { now: number; status?: string; label: string; testId?: string; animated?: boolean }) {
  const value = Math.max(0, Math.min(100, Math.round(now)));
  return (
    <div className="d-flex align-items-center gap-2 progress-meter">
      <NamedProgressBar className="flex-grow-1" now={value} variant={PROGRESS_VARIANTS[status ?? 'processing'] ?? 'primary'} animated={animated} label={label} testId={testId} />
      <span className="small fw-semibold text-nowrap progress-figure" aria-hidden="true">
        {value}%
      </span>
    </div>
  );
}
