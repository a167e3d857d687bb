/**
 * The server's ids (conversions, publications) are UUIDs. An id is checked where an answer is
 * read, because it goes on into URLs, terminal lines and CI files (a dotenv line, $GITHUB_OUTPUT):
 * a compromised server must not smuggle newlines or escapes through it.
 */
import { CliError, EXIT_NETWORK } from './errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isServerId(value: string): boolean {
  return UUID.test(value);
}

/** `value` when it is a UUID; else the server is misbehaving (exit 6). */
export function serverId(value: string, what: 'conversão' | 'publicação'): string {
  if (isServerId(value)) return value;
  const code = what === 'conversão' ? 'INVALID_CONVERSION_ID' : 'INVALID_PUBLICATION_ID';
  // The detail is JSON: whatever the id holds stays escaped, on one line.
  throw new CliError(code, `O servidor respondeu com um id de ${what} inválido (esperado um UUID).`, EXIT_NETWORK, { detail: JSON.stringify(value.slice(0, 100)) });
}
