/** A runtime setting as the admin settings screen sees it (secrets stay masked). */
import { ADMIN_MESSAGES, FISCAL_MESSAGES, type AdminConfigEntry } from '@aabify/shared';
import type { Config } from '../config.js';
import { publicBaseUrl } from '../http/links.js';
import { LOG_LEVELS } from './definitions.js';
import type { SettingEntry } from './index.js';

/** Where the payment provider must send its notifications: a path on this server without PUBLIC_URL. */
export function webhookUrlOf(config: Pick<Config, 'publicUrl'>): string {
  return `${publicBaseUrl(config)}/api/payments/webhook`;
}

export function presentSetting(entry: SettingEntry, webhookUrl: string): AdminConfigEntry {
  const out: AdminConfigEntry = { ...entry };
  if (entry.kind === 'enum' && entry.key === 'logging.level') out.options = [...LOG_LEVELS];
  out.hint = entry.key === 'payments.mercadopago.webhookSecret' ? ADMIN_MESSAGES.webhookHint(webhookUrl) : null;
  // Without the token no NFS-e is requested: the settings screen says so where it is configured.
  if (entry.key === 'nfse.token') out.hint = entry.isSet ? FISCAL_MESSAGES.nfseConfigured : FISCAL_MESSAGES.nfseNotConfigured;
  return out;
}
