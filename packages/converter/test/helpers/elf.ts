/**
 * ELF shared libraries written byte by byte for tests, as the System V ABI lays them out: an ELF
 * header, a program header table right after it (one PT_LOAD per alignment given, plus a
 * PT_DYNAMIC that has no alignment to check), zero padding up to `size`. 32- or 64-bit, either
 * byte order, for any machine. Enough for what reads program headers (Play's 16 KB check,
 * readelf -l); nothing loads them.
 */
export interface ElfOptions {
  bits?: 32 | 64;
  littleEndian?: boolean;
  /** e_machine: 183 AArch64 (default for 64-bit), 62 x86-64, 40 ARM (default for 32-bit), 3 x86. */
  machine?: number;
  /** p_align of each PT_LOAD segment (default two of 16 KB). */
  alignments?: readonly number[];
  /** File size (at least the headers). */
  size?: number;
}

const PT_LOAD = 1;
const PT_DYNAMIC = 2;

export function elfLibrary(o: ElfOptions = {}): Buffer {
  const bits = o.bits ?? 64;
  const le = o.littleEndian ?? true;
  const alignments = o.alignments ?? [16384, 16384];
  const ehsize = bits === 64 ? 64 : 52;
  const phentsize = bits === 64 ? 56 : 32;
  const phnum = alignments.length + 1;
  const size = Math.max(o.size ?? 4096, ehsize + phnum * phentsize);
  const b = Buffer.alloc(size);
  b.set([0x7f, 0x45, 0x4c, 0x46, bits === 64 ? 2 : 1, le ? 1 : 2, 1, 0], 0);
  const u16 = (v: number, at: number): number => (le ? b.writeUInt16LE(v, at) : b.writeUInt16BE(v, at));
  const u32 = (v: number, at: number): number => (le ? b.writeUInt32LE(v, at) : b.writeUInt32BE(v, at));
  const word = (v: number, at: number): number => (bits === 64 ? (le ? b.writeBigUInt64LE(BigInt(v), at) : b.writeBigUInt64BE(BigInt(v), at)) : u32(v, at));
  u16(3, 16); // ET_DYN
  u16(o.machine ?? (bits === 64 ? 183 : 40), 18);
  u32(1, 20); // EV_CURRENT
  const w = bits === 64 ? 8 : 4;
  word(ehsize, 24 + w); // e_phoff, right after the header
  u16(ehsize, 24 + 3 * w + 4);
  u16(phentsize, 24 + 3 * w + 6);
  u16(phnum, 24 + 3 * w + 8);
  const segments = [...alignments.map((align) => ({ type: PT_LOAD, align })), { type: PT_DYNAMIC, align: w }];
  segments.forEach((s, i) => {
    const at = ehsize + i * phentsize;
    u32(s.type, at);
    if (bits === 64) {
      u32(i === 0 ? 5 : 6, at + 4); // p_flags: R+X, then R+W
      word(0, at + 8); // p_offset
      word(i * s.align, at + 16); // p_vaddr
      word(i * s.align, at + 24); // p_paddr
      word(size, at + 32); // p_filesz
      word(size, at + 40); // p_memsz
      word(s.align, at + 48);
    } else {
      word(0, at + 4);
      word(i * s.align, at + 8);
      word(i * s.align, at + 12);
      word(size, at + 16);
      word(size, at + 20);
      u32(i === 0 ? 5 : 6, at + 24);
      word(s.align, at + 28);
    }
  });
  return b;
}
