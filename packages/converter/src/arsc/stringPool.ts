import { ConverterError } from '../errors.js';
import { type ByteReader } from './bytes.js';
import { type ChunkHeader, requireHeader } from './chunk.js';
import { decodeUtf8 } from './utf.js';

export const STRING_POOL_HEADER_SIZE = 28;
export const STRING_POOL_FLAG_SORTED = 0x1;
export const STRING_POOL_FLAG_UTF8 = 0x100;
export const STRING_POOL_SPAN_END = 0xffffffff;
/** More strings (or styles) than this in one pool is refused, whatever the chunk size says. */
export const MAX_STRING_POOL_ENTRIES = 1 << 22;
/**
 * Bytes of string data one pool may decode, beyond its own string data: honest strings do not
 * overlap, so each byte decodes once; a crafted index whose entries start one byte apart inside
 * one long string would decode it again and again (quadratic).
 */
export const STRING_POOL_DECODE_SLACK = 64 * 1024;
/**
 * Characters one pool may hand out over its life, as this base plus `STRING_POOL_SERVED_FACTOR`
 * times the size of the file it is in. Honest files reference short strings (names, values)
 * a few times each — far under it; a crafted one that references one long string from every
 * node or entry would make the output (and the heap) grow as references × length.
 */
export const STRING_POOL_SERVED_BASE = 16 * 1024 * 1024;
export const STRING_POOL_SERVED_FACTOR = 8;
/** Bytes of one ResStringPool_span (name, firstChar, lastChar). */
export const STRING_POOL_SPAN_SIZE = 12;

/** One ResStringPool_span: a tag over UTF-16 code units [firstChar, lastChar], inclusive. */
export interface StyleSpan {
  readonly nameIndex: number;
  readonly name: string;
  readonly firstChar: number;
  readonly lastChar: number;
}

/**
 * A parsed ResStringPool. Strings decode lazily, bounds-checked, once per offset (indices that
 * share an offset share the string), within the decode and served budgets above; every
 * reference counts at least one unit against the served budget (an empty string or an index
 * outside the pool too). Styles are read the same way: once per offset, and no more spans in
 * all than the styles region holds (its bytes / STRING_POOL_SPAN_SIZE).
 */
export interface StringPool {
  readonly count: number;
  readonly styleCount: number;
  readonly utf8: boolean;
  readonly sorted: boolean;
  /** String `i`; "" for an index outside the pool (as aapt2's GetString). */
  get(i: number): string;
  /** The spans of string `i`, or undefined when it has no style (or only the END marker). */
  styleAt(i: number): readonly StyleSpan[] | undefined;
}

export function emptyStringPool(utf8 = true): StringPool {
  return { count: 0, styleCount: 0, utf8, sorted: false, get: () => '', styleAt: () => undefined };
}

/** Parses a STRING_POOL chunk whose validated header is `h`. */
export function parseStringPool(r: ByteReader, h: ChunkHeader): StringPool {
  requireHeader(r, h, STRING_POOL_HEADER_SIZE, 'string pool');
  const at = `string pool at offset ${h.offset}`;
  const count = r.u32(h.offset + 8);
  const styleCount = r.u32(h.offset + 12);
  const flags = r.u32(h.offset + 16);
  const stringsStart = r.u32(h.offset + 20);
  const stylesStart = r.u32(h.offset + 24);
  if (count > MAX_STRING_POOL_ENTRIES || styleCount > MAX_STRING_POOL_ENTRIES) {
    throw new ConverterError('STRING_POOL_TOO_LARGE', `${at}: ${count} strings, ${styleCount} styles`);
  }
  const indexBytes = (count + styleCount) * 4;
  if (h.headerSize + indexBytes > h.size) {
    r.fail(`${at}: ${count} strings + ${styleCount} styles do not fit in ${h.size} bytes`);
  }
  const end = h.offset + h.size;
  const offsets = r.bytes(h.offset + h.headerSize, indexBytes, `${at} index`);
  const offsetView = new DataView(offsets.buffer, offsets.byteOffset, offsets.byteLength);
  if (count > 0 && stringsStart > h.size) r.fail(`${at}: stringsStart ${stringsStart} past chunk size ${h.size}`);
  if (styleCount > 0 && stylesStart > h.size) r.fail(`${at}: stylesStart ${stylesStart} past chunk size ${h.size}`);
  const stringsEnd = styleCount > 0 && stylesStart > stringsStart ? h.offset + stylesStart : end;
  const utf8 = (flags & STRING_POOL_FLAG_UTF8) !== 0;
  const cache: (string | undefined)[] = new Array<string | undefined>(count);
  const byOffset = new Map<number, string>();
  const styleByOffset = new Map<number, readonly StyleSpan[] | undefined>();
  // Honest styles do not overlap: each span of the region is read once. Overlapping starts
  // (style offsets inside each other's spans) would read the same spans again and again.
  const spanBudget = styleCount > 0 && stylesStart <= h.size ? Math.floor((h.size - stylesStart) / STRING_POOL_SPAN_SIZE) : 0;
  let spansRead = 0;
  const decodeBudget = Math.max(0, stringsEnd - (h.offset + stringsStart)) + STRING_POOL_DECODE_SLACK;
  const servedBudget = STRING_POOL_SERVED_BASE + STRING_POOL_SERVED_FACTOR * r.length;
  let decoded = 0;
  let served = 0;
  const spend = (bytes: number): void => {
    decoded += bytes;
    if (decoded > decodeBudget) throw new ConverterError('STRING_POOL_TOO_LARGE', `${at}: strings overlap (${decoded} bytes decoded from ${decodeBudget - STRING_POOL_DECODE_SLACK})`);
  };

  // The name of a string for errors, made only when one is thrown (decoding is hot).
  const what = (i: number, start: number): string => `${at}: string #${i} at offset ${start}`;
  /** Bytes taken by the UTF-8 header length at `p` (1, or 2 when its high bit is set). */
  const utf8LengthSize = (p: number, i: number, start: number): number => {
    if (p >= stringsEnd) r.fail(`${what(i, start)}: truncated length`);
    if ((r.u8(p) & 0x80) === 0) return 1;
    if (p + 1 >= stringsEnd) r.fail(`${what(i, start)}: truncated length`);
    return 2;
  };

  const decodeAt = (start: number, i: number): string => {
    if (start >= stringsEnd) r.fail(`${what(i, start)} is outside the string data`);
    if (utf8) {
      // The UTF-16 length first, unused: the byte length after it is authoritative.
      let p = start + utf8LengthSize(start, i, start);
      const size = utf8LengthSize(p, i, start);
      const byteLen = size === 1 ? r.u8(p) : ((r.u8(p) & 0x7f) << 8) | r.u8(p + 1);
      p += size;
      if (p + byteLen > stringsEnd) r.fail(`${what(i, start)}: ${byteLen} bytes run past the string data`);
      spend(p + byteLen - start);
      return r.asciiText(p, byteLen) ?? decodeUtf8(r.bytes(p, byteLen));
    }
    let p = start;
    if (p + 2 > stringsEnd) r.fail(`${what(i, start)}: truncated length`);
    let len = r.u16(p);
    p += 2;
    if (len & 0x8000) {
      if (p + 2 > stringsEnd) r.fail(`${what(i, start)}: truncated length`);
      len = ((len & 0x7fff) << 16) | r.u16(p);
      p += 2;
    }
    if (p + len * 2 > stringsEnd) r.fail(`${what(i, start)}: ${len} code units run past the string data`);
    spend(p + len * 2 - start);
    return r.utf16Text(p, len);
  };

  // Every reference costs at least one unit: references to nothing (an empty string, an index
  // outside the pool) make output objects too, and were free.
  const serve = (units: number): void => {
    served += Math.max(1, units);
    if (served > servedBudget) throw new ConverterError('STRING_POOL_TOO_LARGE', `${at}: ${served} characters referenced (budget ${servedBudget})`);
  };

  const get = (i: number): string => {
    if (!Number.isInteger(i) || i < 0 || i >= count) {
      serve(1);
      return '';
    }
    let s = cache[i];
    if (s === undefined) {
      const start = h.offset + stringsStart + offsetView.getUint32(i * 4, true);
      s = byOffset.get(start);
      if (s === undefined) {
        s = decodeAt(start, i);
        byOffset.set(start, s);
      }
      cache[i] = s;
    }
    serve(s.length);
    return s;
  };

  // By offset, not by index: a million style indices at one offset share one list of spans.
  const styleAt = (i: number): readonly StyleSpan[] | undefined => {
    if (!Number.isInteger(i) || i < 0 || i >= styleCount) return undefined;
    const start = h.offset + stylesStart + offsetView.getUint32((count + i) * 4, true);
    if (styleByOffset.has(start)) return styleByOffset.get(start);
    const spans: StyleSpan[] = [];
    for (let p = start; ; p += STRING_POOL_SPAN_SIZE) {
      if (p + 4 > end) r.fail(`${at}: style #${i} runs past the chunk at offset ${p}`);
      const nameIndex = r.u32(p);
      if (nameIndex === STRING_POOL_SPAN_END) break;
      if (p + STRING_POOL_SPAN_SIZE > end) r.fail(`${at}: style #${i} span truncated at offset ${p}`);
      if (++spansRead > spanBudget) {
        throw new ConverterError('STRING_POOL_TOO_LARGE', `${at}: styles overlap (more than ${spanBudget} spans read from ${h.size - stylesStart} bytes of styles)`);
      }
      spans.push({ nameIndex, name: get(nameIndex), firstChar: r.u32(p + 4), lastChar: r.u32(p + 8) });
    }
    const result = spans.length > 0 ? spans : undefined;
    styleByOffset.set(start, result);
    return result;
  };

  return {
    count,
    styleCount,
    utf8,
    sorted: (flags & STRING_POOL_FLAG_SORTED) !== 0,
    get,
    styleAt,
  };
}

/** Decodes every string (used where pools are small and all strings are needed, e.g. XML). */
export function allStrings(pool: StringPool): string[] {
  const out: string[] = [];
  for (let i = 0; i < pool.count; i++) out.push(pool.get(i));
  return out;
}
