import { ConverterError } from '../errors.js';

export interface NormalisedName {
  /** Segments joined by "/", with empty and "." segments removed. */
  name: string;
  isDirectory: boolean;
}

const DRIVE = /^[A-Za-z]:/;
// Control characters (C0, DEL) never belong in an APK entry name; NUL truncates names in C tools.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
/** A backslash, an empty segment ("//"), or a "." or ".." segment. */
const NEEDS_SPLITTING = /\\|\/\/|(?:^|\/)\.\.?(?:\/|$)/;

/**
 * Checks one entry name as the central directory spells it and returns its canonical form.
 * Refuses absolute names, drive letters, ".." segments (also when hidden behind backslashes,
 * which Windows tools treat as separators) and control characters.
 */
export function normaliseEntryName(raw: string): NormalisedName {
  if (raw.length === 0) throw new ConverterError('UNSAFE_PATH', 'entrada com nome vazio');
  if (CONTROL.test(raw)) throw new ConverterError('UNSAFE_PATH', `nome com caractere de controle: ${JSON.stringify(raw)}`);
  if (raw.startsWith('/') || raw.startsWith('\\') || DRIVE.test(raw)) {
    throw new ConverterError('UNSAFE_PATH', `caminho absoluto: ${raw}`);
  }
  const isDirectory = raw.endsWith('/');
  // Nearly every name is canonical already (no backslash, empty, "." or ".." segment): it is its
  // own name, without splitting it (~400 names per APK, at every conversion's start).
  if (!NEEDS_SPLITTING.test(raw)) return { name: isDirectory ? raw.slice(0, -1) : raw, isDirectory };
  if (raw.split(/[\\/]/).some((s) => s === '..')) {
    throw new ConverterError('UNSAFE_PATH', `caminho com "..": ${raw}`);
  }
  const name = raw
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .join('/');
  if (name === '' && !isDirectory) throw new ConverterError('UNSAFE_PATH', `nome sem segmentos: ${raw}`);
  return { name, isDirectory };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Entry names are UTF-8 in practice (Android reads them so, flag or not). */
export function decodeEntryName(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new ConverterError('UNSAFE_PATH', `nome de entrada não é UTF-8 válido (${Buffer.from(bytes).toString('hex').slice(0, 64)})`);
  }
}

/** A zip entry name is at most this many bytes (its length is a 16-bit field of both headers). */
export const MAX_ENTRY_NAME_BYTES = 0xffff;

/**
 * Refuses a name the written zip cannot hold: `prefixBytes` (a module's `base/`, an asset pack's
 * name) plus the name's UTF-8 bytes over MAX_ENTRY_NAME_BYTES. An APK's own names fit (the same
 * field), but one of 65,531 bytes or more does not once it goes under `base/`.
 */
export function checkEntryNameLength(name: string, prefixBytes = 0): void {
  // UTF-8 takes at most 3 bytes per UTF-16 unit: nearly every name is measured by its length alone.
  if (prefixBytes + name.length * 3 <= MAX_ENTRY_NAME_BYTES) return;
  const bytes = prefixBytes + Buffer.byteLength(name, 'utf8');
  if (bytes <= MAX_ENTRY_NAME_BYTES) return;
  const shown = name.length > 120 ? `${name.slice(0, 80)}…${name.slice(-40)}` : name;
  throw new ConverterError('UNSAFE_PATH', `nome de entrada longo demais para o AAB: ${bytes} bytes (máximo ${MAX_ENTRY_NAME_BYTES}): ${shown}`);
}
