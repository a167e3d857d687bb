/** The four-step tracker of the conversion page. */
import type { ConversionStatus } from './conversion';

export type StepState = 'completed' | 'active' | 'failed' | 'pending';
export const TRACKER_STEPS = [
  { key: 'upload', label: 'Envio' },
  { key: 'validation', label: 'Validação e fila' },
  { key: 'processing', label: 'Processamento' },
  { key: 'finalisation', label: 'Finalização' },
] as const;
export type TrackerStepKey = (typeof TRACKER_STEPS)[number]['key'];
export type TrackerState = Record<TrackerStepKey, StepState>;

/**
 * Step states for a conversion. `uploading` is the page's own phase before the server knows
 * the conversion. A queue position of 0 means processing.
 */
export function trackerState(status: ConversionStatus | 'uploading' | undefined, queuePosition?: number): TrackerState {
  const effective = (status === 'queued' || status === 'pending') && queuePosition === 0 ? 'processing' : status;
  switch (effective) {
    case 'uploading':
      return { upload: 'active', validation: 'pending', processing: 'pending', finalisation: 'pending' };
    case 'pending':
    case 'queued':
      return { upload: 'completed', validation: 'active', processing: 'pending', finalisation: 'pending' };
    case 'processing':
      return { upload: 'completed', validation: 'completed', processing: 'active', finalisation: 'pending' };
    case 'completed':
      return { upload: 'completed', validation: 'completed', processing: 'completed', finalisation: 'completed' };
    case 'failed':
      return { upload: 'completed', validation: 'completed', processing: 'failed', finalisation: 'pending' };
    case 'cancelled':
      return { upload: 'completed', validation: 'completed', processing: 'pending', finalisation: 'pending' };
    default:
      return { upload: 'pending', validation: 'pending', processing: 'pending', finalisation: 'pending' };
  }
}
