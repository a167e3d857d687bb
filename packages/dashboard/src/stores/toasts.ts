/** Toasts: 4 s for neutral and error, 2 s for success (3 s in admin screens), at most 20 at once. */
import { create } from 'zustand';

export type ToastVariant = 'success' | 'danger' | 'info' | 'warning';
export interface ToastItem {
  id: number;
  variant: ToastVariant;
  title?: string;
  message: string;
  duration: number;
}

export const TOAST_DURATIONS = { neutral: 4000, error: 4000, success: 2000, adminSuccess: 3000 } as const;
export const MAX_TOASTS = 20;

interface ToastState {
  toasts: ToastItem[];
  push(t: Omit<ToastItem, 'id' | 'duration'> & { duration?: number }): number;
  dismiss(id: number): void;
  clear(): void;
}

let nextId = 1;

export function durationFor(variant: ToastVariant, admin = false): number {
  if (variant === 'success') return admin ? TOAST_DURATIONS.adminSuccess : TOAST_DURATIONS.success;
  return variant === 'danger' ? TOAST_DURATIONS.error : TOAST_DURATIONS.neutral;
}

/**
 * Adds a toast, dropping the oldest beyond the cap. A success closes the error toasts before
 * it: the problem they reported was just solved by the action that succeeded.
 */
export function withToast(list: readonly ToastItem[], item: ToastItem, max: number = MAX_TOASTS): ToastItem[] {
  const kept = item.variant === 'success' ? list.filter((t) => t.variant !== 'danger') : list;
  const next = [...kept, item];
  return next.length > max ? next.slice(next.length - max) : next;
}

export const useToasts = create<ToastState>((set) => ({
  toasts: [],
  push: (t) => {
    const id = nextId++;
    const item: ToastItem = { ...t, id, duration: t.duration ?? durationFor(t.variant) };
    set((s) => ({ toasts: withToast(s.toasts, item) }));
    return id;
  },
  dismiss: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
  clear: () => set({ toasts: [] }),
}));

const push = (variant: ToastVariant, message: string, title?: string, duration?: number) =>
  useToasts.getState().push({ variant, message, title, duration });

export const toast = {
  success: (message: string, opts: { admin?: boolean; title?: string } = {}) => push('success', message, opts.title, durationFor('success', opts.admin)),
  error: (message: string, title?: string) => push('danger', message, title),
  info: (message: string, title?: string) => push('info', message, title),
  warning: (message: string, title?: string) => push('warning', message, title),
};
