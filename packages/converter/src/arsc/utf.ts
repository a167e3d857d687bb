const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes UTF-8 from a string pool. Valid UTF-8 takes the fast path; anything else (old aapt
 * wrote CESU-8/modified UTF-8 for characters outside the BMP) is decoded leniently, keeping
 * 3-byte surrogates as code units and mapping stray bytes to U+FFFD.
 */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return decodeLenient(bytes);
  }
}

function decodeLenient(b: Uint8Array): string {
  const units: number[] = [];
  let i = 0;
  const cont = (k: number): boolean => k < b.length && (b[k] & 0xc0) === 0x80;
  while (i < b.length) {
    const c = b[i];
    if (c < 0x80) {
      units.push(c);
      i += 1;
    } else if ((c & 0xe0) === 0xc0 && cont(i + 1)) {
      units.push(((c & 0x1f) << 6) | (b[i + 1] & 0x3f));
      i += 2;
    } else if ((c & 0xf0) === 0xe0 && cont(i + 1) && cont(i + 2)) {
      units.push(((c & 0x0f) << 12) | ((b[i + 1] & 0x3f) << 6) | (b[i + 2] & 0x3f));
      i += 3;
    } else if ((c & 0xf8) === 0xf0 && cont(i + 1) && cont(i + 2) && cont(i + 3)) {
      const cp = ((c & 0x07) << 18) | ((b[i + 1] & 0x3f) << 12) | ((b[i + 2] & 0x3f) << 6) | (b[i + 3] & 0x3f);
      if (cp > 0xffff && cp <= 0x10ffff) {
        const v = cp - 0x10000;
        units.push(0xd800 + (v >> 10), 0xdc00 + (v & 0x3ff));
      } else {
        units.push(0xfffd);
      }
      i += 4;
    } else {
      units.push(0xfffd);
      i += 1;
    }
  }
  return unitsToString(units);
}

/** Builds a string from UTF-16 code units in slices (spread of huge arrays overflows the stack). */
export function unitsToString(units: ArrayLike<number>): string {
  let out = '';
  const step = 8192;
  for (let i = 0; i < units.length; i += step) {
    out += String.fromCharCode(...Array.prototype.slice.call(units, i, i + step));
  }
  return out;
}
