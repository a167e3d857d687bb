/**
 * Whether the signed-in customer must accept the current Termos de Uso and Política de
 * Privacidade before going on: set by a 403 LEGAL_ACCEPTANCE_REQUIRED from any call (api/client.ts)
 * or by the check the gate makes when a session starts (components/LegalAcceptanceGate.tsx).
 */
import { create } from 'zustand';

interface LegalAcceptanceState {
  required: boolean;
  setRequired(required: boolean): void;
}

export const useLegalAcceptance = create<LegalAcceptanceState>((set) => ({
  required: false,
  setRequired: (required) => set({ required }),
}));
