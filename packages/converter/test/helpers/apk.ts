// Test-only APK reader (central directory + node:zlib), so resource tests do not depend on
// the engine's zip module. Not for hostile input.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';

export function corpusDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return process.env.AABIFY_CORPUS ?? resolve(here, '../../../../../shared/corpus');
}

export function corpusApks(): string[] {
  const dir = corpusDir();
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.apk'))
    .sort()
    .map((f) => join(dir, f));
}

export class TestApk {
  readonly entries = new Map<string, { method: number; offset: number; csize: number }>();

  constructor(readonly buf: Buffer) {
    let eocd = -1;
    for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65557); i--) {
      if (buf.readUInt32LE(i) === 0x06054b50) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw new Error('no EOCD');
    const count = buf.readUInt16LE(eocd + 10);
    let p = buf.readUInt32LE(eocd + 16);
    for (let i = 0; i < count; i++) {
      const method = buf.readUInt16LE(p + 10);
      const csize = buf.readUInt32LE(p + 20);
      const nameLen = buf.readUInt16LE(p + 28);
      const extraLen = buf.readUInt16LE(p + 30);
      const commentLen = buf.readUInt16LE(p + 32);
      const offset = buf.readUInt32LE(p + 42);
      const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
      this.entries.set(name, { method, offset, csize });
      p += 46 + nameLen + extraLen + commentLen;
    }
  }

  static open(path: string): TestApk {
    return new TestApk(readFileSync(path));
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  read(name: string): Uint8Array | undefined {
    const e = this.entries.get(name);
    if (!e) return undefined;
    const b = this.buf;
    const start = e.offset + 30 + b.readUInt16LE(e.offset + 26) + b.readUInt16LE(e.offset + 28);
    const data = b.subarray(start, start + e.csize);
    return new Uint8Array(e.method === 0 ? data : inflateRawSync(data));
  }
}
