/**
 * The server's ids (users, conversions, plans, purchases, publications…) are UUIDs: any 8-4-4-4-12
 * hexadecimal text, upper or lower case. One pattern for every place that checks one.
 */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
