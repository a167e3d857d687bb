import { ConverterError } from '../errors.js';
import type { ZipLimits } from './limits.js';
import { decodeEntryName, normaliseEntryName } from './names.js';

export const SIG_LOCAL = 0x04034b50;
export const SIG_CENTRAL = 0x02014b50;
export const SIG_EOCD = 0x06054b50;
export const SIG_EOCD64 = 0x06064b50;
export const SIG_EOCD64_LOCATOR = 0x07064b50;
export const EOCD_SIZE = 22;
export const LOCAL_HEADER_SIZE = 30;
export const CENTRAL_HEADER_SIZE = 46;
export const MAX32 = 0xffffffff;
export const MAX16 = 0xffff;
export const FLAG_ENCRYPTED = 0x0001;
export const FLAG_DATA_DESCRIPTOR = 0x0008;
export const FLAG_STRONG_ENCRYPTION = 0x0040;
export const FLAG_UTF8 = 0x0800;
export const METHOD_STORED = 0;
export const METHOD_DEFLATED = 8;
const METHOD_AES = 99;

/** One entry as the central directory declares it. */
export interface ZipEntry {
  /** Position in the central directory. */
  readonly index: number;
  /** Canonical name (empty and "." segments removed). */
  readonly name: string;
  /** Name exactly as stored. */
  readonly rawName: string;
  readonly isDirectory: boolean;
  readonly method: number;
  readonly flags: number;
  readonly crc32: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  readonly localHeaderOffset: number;
  /** First byte that no longer belongs to this entry (next entry or central directory). */
  readonly dataLimit: number;
}

export interface EndOfCentralDirectory {
  entryCount: number;
  cdOffset: number;
  cdSize: number;
  /** Where the (Zip64 or classic) end record starts; the central directory must end before it. */
  endOffset: number;
}

function u64(buf: Buffer, at: number): number {
  const v = buf.readBigUInt64LE(at);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new ConverterError('CORRUPT_ZIP', `valor de 64 bits fora do limite em ${at}`);
  return Number(v);
}

/**
 * Finds the end-of-central-directory record in the file's tail. `tailStart` is the absolute
 * offset of `tail`; `readAt` fetches the Zip64 record when a locator is present.
 */
export async function parseEndRecord(
  tail: Buffer,
  tailStart: number,
  fileSize: number,
  readAt: (pos: number, len: number) => Promise<Buffer>,
): Promise<EndOfCentralDirectory> {
  let at = -1;
  for (let i = tail.length - EOCD_SIZE; i >= 0; i--) {
    if (tail.readUInt32LE(i) === SIG_EOCD && i + EOCD_SIZE + tail.readUInt16LE(i + 20) <= tail.length) {
      at = i;
      break;
    }
  }
  if (at < 0) return Promise.reject(new ConverterError('NOT_A_ZIP', 'registro de fim do diretório central não encontrado'));
  const disk = tail.readUInt16LE(at + 4);
  const cdDisk = tail.readUInt16LE(at + 6);
  let entryCount = tail.readUInt16LE(at + 10);
  let cdSize = tail.readUInt32LE(at + 12);
  let cdOffset = tail.readUInt32LE(at + 16);
  let endOffset = tailStart + at;
  const locAt = at - 20;
  if (locAt >= 0 && tail.readUInt32LE(locAt) === SIG_EOCD64_LOCATOR) {
    const recOffset = u64(tail, locAt + 8);
    if (recOffset + 56 > tailStart + locAt) throw new ConverterError('CORRUPT_ZIP', 'localizador Zip64 aponta para fora do arquivo');
    const rec = await readAt(recOffset, 56);
    if (rec.readUInt32LE(0) !== SIG_EOCD64) throw new ConverterError('CORRUPT_ZIP', 'registro Zip64 ausente');
    if (rec.readUInt32LE(16) !== 0 || rec.readUInt32LE(20) !== 0) throw new ConverterError('CORRUPT_ZIP', 'ZIP em vários volumes');
    entryCount = u64(rec, 32);
    cdSize = u64(rec, 40);
    cdOffset = u64(rec, 48);
    endOffset = recOffset;
  } else if (disk !== 0 || cdDisk !== 0) {
    throw new ConverterError('CORRUPT_ZIP', 'ZIP em vários volumes');
  }
  if (cdOffset + cdSize > fileSize) throw new ConverterError('TRUNCATED_ZIP', `diretório central em ${cdOffset}+${cdSize}, arquivo com ${fileSize} bytes`);
  if (cdOffset + cdSize > endOffset) throw new ConverterError('CORRUPT_ZIP', 'diretório central sobrepõe o registro final');
  return { entryCount, cdOffset, cdSize, endOffset };
}

interface ParsedCentral extends Omit<ZipEntry, 'dataLimit'> {
  nameLength: number;
}

function readZip64Extra(extra: Buffer, e: { usize: number; csize: number; offset: number }, name: string): void {
  let p = 0;
  while (p + 4 <= extra.length) {
    const id = extra.readUInt16LE(p);
    const len = extra.readUInt16LE(p + 2);
    if (p + 4 + len > extra.length) break;
    if (id === 0x0001) {
      let q = p + 4;
      const take = (): number => {
        if (q + 8 > p + 4 + len) throw new ConverterError('CORRUPT_ZIP', `campo Zip64 curto em ${name}`);
        const v = u64(extra, q);
        q += 8;
        return v;
      };
      if (e.usize === MAX32) e.usize = take();
      if (e.csize === MAX32) e.csize = take();
      if (e.offset === MAX32) e.offset = take();
      return;
    }
    p += 4 + len;
  }
}

function checkEntry(e: ParsedCentral, limits: ZipLimits): void {
  if (e.flags & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION) || e.method === METHOD_AES) {
    throw new ConverterError('ENCRYPTED_ENTRY', e.rawName);
  }
  if (e.method !== METHOD_STORED && e.method !== METHOD_DEFLATED) {
    throw new ConverterError('UNSUPPORTED_COMPRESSION', `${e.rawName}: método ${e.method}`);
  }
  if (e.method === METHOD_STORED && e.compressedSize !== e.uncompressedSize) {
    throw new ConverterError('SIZE_MISMATCH', `${e.rawName}: armazenado com ${e.compressedSize} bytes mas declara ${e.uncompressedSize}`);
  }
  if (e.uncompressedSize > limits.maxEntryInflatedBytes) {
    throw new ConverterError('INFLATED_TOO_LARGE', `${e.rawName}: ${e.uncompressedSize} bytes descompactados`);
  }
  if (
    e.uncompressedSize > limits.compressionRatioThresholdBytes &&
    e.uncompressedSize / Math.max(1, e.compressedSize) > limits.maxCompressionRatio
  ) {
    throw new ConverterError('SUSPICIOUS_COMPRESSION', `${e.rawName}: ${e.compressedSize} → ${e.uncompressedSize} bytes`);
  }
}

/** Parses and checks the whole central directory: names, methods, sizes, overlaps, duplicates. */
export function parseCentralDirectory(cd: Buffer, end: EndOfCentralDirectory, limits: ZipLimits): ZipEntry[] {
  const parsed: ParsedCentral[] = [];
  let p = 0;
  let declaredTotal = 0;
  const seen = new Map<string, string>();
  while (p < cd.length) {
    if (parsed.length >= end.entryCount) throw new ConverterError('CORRUPT_ZIP', 'diretório central com mais entradas que o declarado');
    if (p + CENTRAL_HEADER_SIZE > cd.length || cd.readUInt32LE(p) !== SIG_CENTRAL) {
      throw new ConverterError('CORRUPT_ZIP', `cabeçalho central inválido na posição ${end.cdOffset + p}`);
    }
    const flags = cd.readUInt16LE(p + 8);
    const method = cd.readUInt16LE(p + 10);
    const crc = cd.readUInt32LE(p + 16);
    const sizes = { csize: cd.readUInt32LE(p + 20), usize: cd.readUInt32LE(p + 24), offset: cd.readUInt32LE(p + 42) };
    const nameLen = cd.readUInt16LE(p + 28);
    const extraLen = cd.readUInt16LE(p + 30);
    const commentLen = cd.readUInt16LE(p + 32);
    const next = p + CENTRAL_HEADER_SIZE + nameLen + extraLen + commentLen;
    if (next > cd.length) throw new ConverterError('CORRUPT_ZIP', 'registro central ultrapassa o diretório');
    const rawName = decodeEntryName(cd.subarray(p + CENTRAL_HEADER_SIZE, p + CENTRAL_HEADER_SIZE + nameLen));
    readZip64Extra(cd.subarray(p + CENTRAL_HEADER_SIZE + nameLen, p + CENTRAL_HEADER_SIZE + nameLen + extraLen), sizes, rawName);
    const { name, isDirectory } = normaliseEntryName(rawName);
    const entry: ParsedCentral = {
      index: parsed.length,
      name,
      rawName,
      isDirectory,
      method,
      flags,
      crc32: crc,
      compressedSize: sizes.csize,
      uncompressedSize: sizes.usize,
      localHeaderOffset: sizes.offset,
      nameLength: nameLen,
    };
    checkEntry(entry, limits);
    declaredTotal += entry.uncompressedSize;
    if (declaredTotal > limits.maxTotalInflatedBytes) {
      throw new ConverterError('INFLATED_TOO_LARGE', `mais de ${limits.maxTotalInflatedBytes} bytes descompactados declarados`);
    }
    if (!isDirectory) {
      const prior = seen.get(name);
      if (prior !== undefined) throw new ConverterError('DUPLICATE_ENTRY', prior === rawName ? rawName : `${prior} / ${rawName}`);
      seen.set(name, rawName);
    }
    parsed.push(entry);
    p = next;
  }
  if (parsed.length !== end.entryCount) {
    throw new ConverterError('CORRUPT_ZIP', `diretório central com ${parsed.length} entradas, declaradas ${end.entryCount}`);
  }
  return withDataLimits(parsed, end.cdOffset);
}

/** Each entry's data must end before the next entry starts: refuses overlapping (bomb) layouts. */
function withDataLimits(parsed: ParsedCentral[], cdOffset: number): ZipEntry[] {
  const byOffset = [...parsed].sort((a, b) => a.localHeaderOffset - b.localHeaderOffset || a.index - b.index);
  const limits: number[] = new Array<number>(parsed.length).fill(cdOffset);
  for (let i = 0; i < byOffset.length; i++) {
    const e = byOffset[i];
    const limit = i + 1 < byOffset.length ? byOffset[i + 1].localHeaderOffset : cdOffset;
    const minEnd = e.localHeaderOffset + LOCAL_HEADER_SIZE + e.nameLength + e.compressedSize;
    if (minEnd > cdOffset) throw new ConverterError('SIZE_MISMATCH', `${e.rawName}: dados ultrapassam o diretório central`);
    if (minEnd > limit) throw new ConverterError('CORRUPT_ZIP', `entradas sobrepostas: ${e.rawName}`);
    limits[e.index] = limit;
  }
  // Field by field rather than rest and spread, which run as slow generic copies in a function
  // that runs once per APK (~1 ms for ~400 entries).
  return parsed.map((e) => ({
    index: e.index,
    name: e.name,
    rawName: e.rawName,
    isDirectory: e.isDirectory,
    method: e.method,
    flags: e.flags,
    crc32: e.crc32,
    compressedSize: e.compressedSize,
    uncompressedSize: e.uncompressedSize,
    localHeaderOffset: e.localHeaderOffset,
    dataLimit: limits[e.index]!,
  }));
}
