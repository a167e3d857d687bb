/**
 * CRC-32 (IEEE 802.3, as in ZIP). zlib's own (node:zlib crc32, native, Node >= 20.15): raw
 * copies, verification and new entries all need one that keeps up with disk speed.
 */
import { crc32 as zlibCrc32 } from 'node:zlib';

/** Continues a CRC over `buf`; start with 0. */
export function crc32Update(crc: number, buf: Uint8Array): number {
  return buf.length === 0 ? crc >>> 0 : zlibCrc32(buf, crc) >>> 0;
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
