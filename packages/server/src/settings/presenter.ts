/** A runtime setting as the admin settings screen sees it (secrets stay masked). */
import type { AdminConfigEntry } from '@aabify/shared';
import type { Config } from '../config.js';
import { LOG_LEVELS } from './definitions.js';
import type { SettingEntry } from './index.js';

/** Where the payment provider must send its notifications. */
export function webhookUrlOf(config: Pick<Config, 'publicUrl'>, fallbackBase: string): string {
  const base = (config.publicUrl ?? fallbackBase).replace(/\/+$/, '');
  return `${base}/api/payments/webhook`;
}

export function presentSetting(entry: SettingEntry, webhookUrl: string): AdminConfigEntry {
  const out: AdminConfigEntry = { ...entry };
  if (entry.kind === 'enum' && entry.key === 'logging.level') out.options = [...LOG_LEVELS];
  out.hint = entry.key === 'payments.mercadopago.webhookSecret' ? `URL do webhook para cadastrar no Mercado Pago: ${webhookUrl}` : null;
  return out;
}
