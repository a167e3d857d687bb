/**
 * What Google Play's 16 KB page-size check reads of a native library: the ELF header and the
 * program headers, for the alignment (p_align) of each loadable segment (PT_LOAD). 32- and 64-bit
 * files, either byte order; anything malformed is a pt-BR problem, never an exception.
 * Layout: the System V ABI's ELF header and program header table (docs/checks.md).
 */

export interface ElfLoadSegments {
  bits: 32 | 64;
  littleEndian: boolean;
  /** e_machine (183 AArch64, 62 x86-64, 40 ARM, 3 x86, 243 RISC-V). */
  machine: number;
  /** p_align of every PT_LOAD segment, in file order. */
  loadAlignments: number[];
}

export type ElfReading = { ok: true; elf: ElfLoadSegments } | { ok: false; problem: string };

const PT_LOAD = 1;
/** e_phnum's escape value: the real count is elsewhere (section 0), which no library needs. */
const PN_XNUM = 0xffff;
/** Bytes of the ELF header every file has (the 64-bit one; the 32-bit one is 52). */
export const ELF_HEADER_BYTES = 64;
/** Program headers further into the file than this are refused as malformed (real ones follow the header). */
export const MAX_PROGRAM_HEADERS_END = 1024 * 1024;

interface Header {
  bits: 32 | 64;
  littleEndian: boolean;
  machine: number;
  phoff: number;
  phentsize: number;
  phnum: number;
}

function problem(text: string): { ok: false; problem: string } {
  return { ok: false, problem: text };
}

function readHeader(b: Uint8Array, size: number): Header | { ok: false; problem: string } {
  if (b.length < 16 || b[0] !== 0x7f || b[1] !== 0x45 || b[2] !== 0x4c || b[3] !== 0x46) return problem('não é um arquivo ELF');
  const bits = b[4] === 1 ? 32 : b[4] === 2 ? 64 : undefined;
  if (bits === undefined) return problem(`classe ELF desconhecida (${b[4]})`);
  const littleEndian = b[5] === 1 ? true : b[5] === 2 ? false : undefined;
  if (littleEndian === undefined) return problem(`ordem de bytes ELF desconhecida (${b[5]})`);
  if (b[6] !== 1) return problem(`versão ELF desconhecida (${b[6]})`);
  const headerSize = bits === 64 ? 64 : 52;
  if (b.length < headerSize || size < headerSize) return problem('cabeçalho ELF truncado');
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const machine = v.getUint16(18, littleEndian);
  const phoff = bits === 64 ? Number(v.getBigUint64(32, littleEndian)) : v.getUint32(28, littleEndian);
  const phentsize = v.getUint16(bits === 64 ? 54 : 42, littleEndian);
  const phnum = v.getUint16(bits === 64 ? 56 : 44, littleEndian);
  if (phnum === 0) return problem('sem cabeçalhos de programa (nenhum segmento carregável)');
  if (phnum === PN_XNUM) return problem('número de cabeçalhos de programa fora do padrão (PN_XNUM)');
  if (phentsize < (bits === 64 ? 56 : 32)) return problem(`tamanho de cabeçalho de programa inválido (${phentsize})`);
  return { bits, littleEndian, machine, phoff, phentsize, phnum };
}

/**
 * Where the program header table ends (the bytes `readElfLoadSegments` needs), or the problem
 * found in the first ELF_HEADER_BYTES bytes. `size` is the whole file's.
 */
export function programHeadersEnd(head: Uint8Array, size: number): { ok: true; end: number } | { ok: false; problem: string } {
  const h = readHeader(head, size);
  if ('ok' in h) return h;
  const end = h.phoff + h.phnum * h.phentsize;
  if (h.phoff < (h.bits === 64 ? 64 : 52) || end > size) return problem('cabeçalhos de programa fora do arquivo');
  if (end > MAX_PROGRAM_HEADERS_END) return problem('cabeçalhos de programa longe demais do início do arquivo');
  return { ok: true, end };
}

/** The PT_LOAD alignments of an ELF file, from its first bytes (at least to programHeadersEnd). */
export function readElfLoadSegments(bytes: Uint8Array, size: number): ElfReading {
  const h = readHeader(bytes, size);
  if ('ok' in h) return h;
  const end = programHeadersEnd(bytes, size);
  if (!end.ok) return end;
  if (bytes.length < end.end) return problem('cabeçalhos de programa truncados');
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const loadAlignments: number[] = [];
  for (let i = 0; i < h.phnum; i++) {
    const at = h.phoff + i * h.phentsize;
    if (v.getUint32(at, h.littleEndian) !== PT_LOAD) continue;
    loadAlignments.push(h.bits === 64 ? Number(v.getBigUint64(at + 48, h.littleEndian)) : v.getUint32(at + 28, h.littleEndian));
  }
  if (loadAlignments.length === 0) return problem('nenhum segmento carregável (PT_LOAD)');
  return { ok: true, elf: { bits: h.bits, littleEndian: h.littleEndian, machine: h.machine, loadAlignments } };
}
