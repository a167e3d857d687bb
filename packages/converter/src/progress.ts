import type { ConversionStage } from './report.js';
import { monotonicMs } from './clock.js';

/**
 * Turns raw stage fractions into what the UI can trust: within a stage, values only go up, at
 * least 1% apart (except the final 1), and each stage's duration is measured from 0 to 1.
 */
export class ProgressTracker {
  private readonly last = new Map<ConversionStage, number>();
  private readonly started = new Map<ConversionStage, number>();
  readonly durations: Partial<Record<ConversionStage, number>> = {};

  constructor(private readonly onProgress?: (stage: ConversionStage, fraction: number) => void) {}

  report(stage: ConversionStage, fraction: number): void {
    const f = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
    const prev = this.last.get(stage);
    if (prev === undefined) this.started.set(stage, monotonicMs());
    if (prev !== undefined && (f <= prev || (f < 1 && f - prev < 0.01))) return;
    this.last.set(stage, f);
    if (f === 1) this.durations[stage] = Math.round(monotonicMs() - (this.started.get(stage) ?? monotonicMs()));
    this.onProgress?.(stage, f);
  }
}
