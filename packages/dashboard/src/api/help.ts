import type { SupportContact } from '@aabify/shared';
import { api } from './client';

export const helpApi = {
  support: () => api.get<SupportContact>('/support', { quiet: true }),
};
