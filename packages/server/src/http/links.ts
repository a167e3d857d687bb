import type { Config } from '../config.js';

/**
 * What links in API answers start with: PUBLIC_URL, else nothing — a path relative to the server
 * the client called, which the dashboard and the CLI resolve against it. Never the request's
 * Host: a cache or proxy that keys answers without it would serve a link to an attacker's host
 * to everyone. (E-mails, which need a whole URL, use PUBLIC_URL or the server's own listening
 * address: mail/outbox.ts.)
 */
export function publicBaseUrl(config: Pick<Config, 'publicUrl'>): string {
  return config.publicUrl ? config.publicUrl.replace(/\/+$/, '') : '';
}
