/** The account's upload keystore (docs/signing.md "Sign conversions in the web service"): metadata only, never the key. */
import type { KeystoreMetadata } from '@aabify/shared';
import { api } from './client';

export interface KeystoreUploadBody {
  keystore: string;
  storePassword: string;
  alias?: string;
  keyPassword?: string;
  fileName?: string;
}

export const keystoreApi = {
  /** The stored keystore's metadata; null when none is stored (an empty state, not an error). */
  get: async (): Promise<KeystoreMetadata | null> => (await api.get<{ keystore: KeystoreMetadata | null }>('/account/keystore', { quiet: true })).keystore,
  /** Stores or replaces it; the caller words the refusals (422 with the engine's code). */
  put: (body: KeystoreUploadBody) => api.put<{ message: string; keystore: KeystoreMetadata }>('/account/keystore', body, { quiet: true }),
  delete: () => api.delete<void>('/account/keystore', { quiet: true }),
};
