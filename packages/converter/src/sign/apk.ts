/**
 * APK Signature Scheme v2 and v3 (docs/apks.md): the APK Signing Block placed between an APK's
 * entries and its central directory, holding one signer per scheme. Both sign the same content
 * digest: the entries, the central directory and the end record (its central-directory offset
 * read as the block's), each cut into 1 MiB chunks, every chunk hashed with a 0xa5 prefix and
 * its length, the chunk digests hashed again with a 0x5a prefix and their count.
 */
import { createHash, createPublicKey, sign, type Hash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { ConverterError } from '../errors.js';
import type { ChunkHasher } from '../zip/index.js';
import type { SigningKey } from './keystore.js';

const CHUNK = 1024 * 1024;
const BLOCK_MAGIC = Buffer.from('APK Sig Block 42', 'latin1');
export const V2_BLOCK_ID = 0x7109871a;
export const V3_BLOCK_ID = 0xf05368c0;
/** v2 signer attribute saying a v3 signature exists too (so stripping it is detected). */
const STRIPPING_PROTECTION_ID = 0xbeeff00d;
/** v3 applies from Android 9 (API 28) on, for every later version. */
const V3_MIN_SDK = 28;
const V3_MAX_SDK = 0x7fffffff;

/** Signature algorithm ids of the APK Signature Scheme, with the digest each uses. */
export interface ApkSignatureAlgorithm {
  id: number;
  name: string;
  digest: 'sha256' | 'sha512';
}

/** apksig's choice: SHA-256 for RSA up to 3072 bits and P-256, SHA-512 above. */
export function apkSignatureAlgorithm(key: SigningKey): ApkSignatureAlgorithm {
  if (key.algorithm === 'RSA') {
    return key.bits <= 3072 ? { id: 0x0103, name: 'RSASSA-PKCS1-v1_5 com SHA-256', digest: 'sha256' } : { id: 0x0104, name: 'RSASSA-PKCS1-v1_5 com SHA-512', digest: 'sha512' };
  }
  return key.bits <= 256 ? { id: 0x0201, name: 'ECDSA com SHA-256', digest: 'sha256' } : { id: 0x0202, name: 'ECDSA com SHA-512', digest: 'sha512' };
}

const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0, 0);
  return b;
};
const prefixed = (b: Uint8Array): Buffer => Buffer.concat([u32(b.length), b]);
const sequence = (items: readonly Uint8Array[]): Buffer => prefixed(Buffer.concat(items.map(prefixed)));

function chunkHeader(length: number): Buffer {
  const header = Buffer.alloc(5);
  header[0] = 0xa5;
  header.writeUInt32LE(length, 1);
  return header;
}

/**
 * The digests of the entries' 1 MiB chunks, taken as the APK is written (the zip writer's
 * `onWrite`), so signing reads back at most the last, partial chunk. With a ChunkHasher (a
 * verifier thread, for a large APK) the thread hashes the chunks from the file as their bytes are
 * final, else this thread hashes the bytes as they go by. Writes must come in order from the start
 * of the file; one that does not (a header patched afterwards, an entry written over) has its
 * chunks hashed again by the thread, or read back when signing.
 */
export class ChunkDigests {
  private readonly complete: Buffer[] = [];
  private current: Hash | undefined;
  private fill = 0;
  /** Bytes seen in order from the start of the file. */
  private seen = 0;
  private stopped = false;

  constructor(
    private readonly digest: 'sha256' | 'sha512',
    private readonly hasher?: ChunkHasher,
  ) {}

  /** The zip writer's `onWrite`. */
  written(bytes: Uint8Array, position: number): void {
    if (this.hasher) {
      if (position === this.seen) {
        this.seen += bytes.length;
        this.hasher.advance(this.seen);
      } else {
        // Bytes before `seen` changed: the thread hashes their chunks again once final. Writes
        // after a rewind come before `seen` until they pass it, so no position is declared final
        // while bytes before it may still change.
        this.hasher.rewritten(position);
        this.seen = Math.max(this.seen, position + bytes.length);
      }
      return;
    }
    if (this.stopped) return;
    if (position !== this.seen) {
      // Rewritten bytes: the chunks from the first one touched are read back when signing.
      this.stopped = true;
      this.complete.length = Math.min(this.complete.length, Math.floor(position / CHUNK));
      return;
    }
    for (let at = 0; at < bytes.length; ) {
      this.current ??= createHash(this.digest).update(chunkHeader(CHUNK));
      const n = Math.min(CHUNK - this.fill, bytes.length - at);
      this.current.update(bytes.subarray(at, at + n));
      this.fill += n;
      at += n;
      if (this.fill === CHUNK) {
        this.complete.push(this.current.digest());
        this.current = undefined;
        this.fill = 0;
      }
    }
    this.seen += bytes.length;
  }

  /**
   * Digests of chunks before `end` (where the entries end, all written) known without reading the
   * file here: every one, the last partial chunk included, from the thread; else the whole
   * chunks seen on the way (a prefix of them). contentDigest reads back the rest.
   */
  async before(end: number): Promise<Buffer[]> {
    if (this.hasher) return (await this.hasher.digests(end)) ?? [];
    return this.complete.slice(0, Math.floor(end / CHUNK));
  }

  /** Ends the thread, if any (after `before`, or when the writing stops). */
  dispose(): void {
    this.hasher?.dispose();
  }
}

/**
 * The chunked digest of the three signed sections: the entries' chunks `known` (digested as they
 * were written, see ChunkDigests), the rest read back from `path`.
 */
export function contentDigest(path: string, entriesEnd: number, centralDirectory: Uint8Array, endRecord: Uint8Array, digest: 'sha256' | 'sha512', known: readonly Buffer[] = []): Buffer {
  const chunkDigests: Buffer[] = [...known];
  const hashChunk = (bytes: Uint8Array): void => {
    chunkDigests.push(createHash(digest).update(chunkHeader(bytes.length)).update(bytes).digest());
  };
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    for (let at = known.length * CHUNK; at < entriesEnd; ) {
      const n = Math.min(CHUNK, entriesEnd - at);
      let got = 0;
      while (got < n) {
        const r = readSync(fd, buf, got, n - got, at + got);
        if (r === 0) throw new ConverterError('IO_ERROR', `${path}: menor que ${entriesEnd} bytes ao assinar`);
        got += r;
      }
      hashChunk(buf.subarray(0, n));
      at += n;
    }
  } finally {
    closeSync(fd);
  }
  for (let at = 0; at < centralDirectory.length; at += CHUNK) hashChunk(centralDirectory.subarray(at, Math.min(centralDirectory.length, at + CHUNK)));
  hashChunk(endRecord);
  const top = Buffer.alloc(5);
  top[0] = 0x5a;
  top.writeUInt32LE(chunkDigests.length, 1);
  return createHash(digest).update(top).update(Buffer.concat(chunkDigests)).digest();
}

function signBytes(key: SigningKey, alg: ApkSignatureAlgorithm, data: Uint8Array): Buffer {
  return sign(alg.digest, data, key.algorithm === 'RSA' ? key.privateKey : { key: key.privateKey, dsaEncoding: 'der' });
}

function publicKeyDer(key: SigningKey): Buffer {
  return createPublicKey(key.privateKey).export({ type: 'spki', format: 'der' });
}

function v2Signer(key: SigningKey, alg: ApkSignatureAlgorithm, digest: Buffer, withV3: boolean): Buffer {
  const attributes = withV3 ? [Buffer.concat([u32(STRIPPING_PROTECTION_ID), u32(3)])] : [];
  const signedData = Buffer.concat([
    sequence([Buffer.concat([u32(alg.id), prefixed(digest)])]),
    sequence(key.chain.map((c) => c.der)),
    sequence(attributes),
  ]);
  return Buffer.concat([prefixed(signedData), sequence([Buffer.concat([u32(alg.id), prefixed(signBytes(key, alg, signedData))])]), prefixed(publicKeyDer(key))]);
}

function v3Signer(key: SigningKey, alg: ApkSignatureAlgorithm, digest: Buffer): Buffer {
  const signedData = Buffer.concat([
    sequence([Buffer.concat([u32(alg.id), prefixed(digest)])]),
    sequence(key.chain.map((c) => c.der)),
    u32(V3_MIN_SDK),
    u32(V3_MAX_SDK),
    sequence([]),
  ]);
  return Buffer.concat([
    prefixed(signedData),
    u32(V3_MIN_SDK),
    u32(V3_MAX_SDK),
    sequence([Buffer.concat([u32(alg.id), prefixed(signBytes(key, alg, signedData))])]),
    prefixed(publicKeyDer(key)),
  ]);
}

function pair(id: number, value: Buffer): Buffer {
  const head = Buffer.alloc(12);
  head.writeBigUInt64LE(BigInt(value.length + 4), 0);
  head.writeUInt32LE(id >>> 0, 8);
  return Buffer.concat([head, value]);
}

/** The APK Signing Block with a v2 and a v3 signer over `digest`. */
export function apkSigningBlock(key: SigningKey, digest: Buffer): Buffer {
  const alg = apkSignatureAlgorithm(key);
  const pairs = Buffer.concat([pair(V2_BLOCK_ID, sequence([v2Signer(key, alg, digest, true)])), pair(V3_BLOCK_ID, sequence([v3Signer(key, alg, digest)]))]);
  const size = BigInt(pairs.length + 8 + BLOCK_MAGIC.length);
  const sizeField = Buffer.alloc(8);
  sizeField.writeBigUInt64LE(size, 0);
  return Buffer.concat([sizeField, pairs, sizeField, BLOCK_MAGIC]);
}
