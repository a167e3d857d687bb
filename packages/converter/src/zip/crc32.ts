/**
 * CRC-32 (IEEE 802.3, as in ZIP), slicing-by-8. Node 20 has no zlib.crc32, and raw copies,
 * verification and new entries all need one that keeps up with disk speed.
 */
const TABLES: Uint32Array = (() => {
  const t = new Uint32Array(8 * 256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[i] = c >>> 0;
  }
  for (let i = 0; i < 256; i++) {
    for (let s = 1; s < 8; s++) {
      const prev = t[(s - 1) * 256 + i];
      t[s * 256 + i] = (prev >>> 8) ^ t[prev & 0xff];
    }
  }
  return t;
})();

/** Continues a CRC over `buf`; start with 0. */
export function crc32Update(crc: number, buf: Uint8Array): number {
  const t = TABLES;
  let c = ~crc >>> 0;
  let i = 0;
  const n = buf.length;
  const end8 = n - (n % 8);
  while (i < end8) {
    const a = (c ^ (buf[i] | (buf[i + 1] << 8) | (buf[i + 2] << 16) | (buf[i + 3] << 24))) >>> 0;
    const b = buf[i + 4] | (buf[i + 5] << 8) | (buf[i + 6] << 16) | (buf[i + 7] << 24);
    c =
      t[1792 + (a & 0xff)] ^
      t[1536 + ((a >>> 8) & 0xff)] ^
      t[1280 + ((a >>> 16) & 0xff)] ^
      t[1024 + (a >>> 24)] ^
      t[768 + (b & 0xff)] ^
      t[512 + ((b >>> 8) & 0xff)] ^
      t[256 + ((b >>> 16) & 0xff)] ^
      t[(b >>> 24) & 0xff];
    i += 8;
  }
  while (i < n) c = t[(c ^ buf[i++]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

export function crc32(buf: Uint8Array): number {
  return crc32Update(0, buf);
}

/** Incremental CRC for streams. */
export class Crc32 {
  private value = 0;
  update(buf: Uint8Array): void {
    this.value = crc32Update(this.value, buf);
  }
  digest(): number {
    return this.value;
  }
}
