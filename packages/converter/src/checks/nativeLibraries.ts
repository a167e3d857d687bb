/**
 * The native-code checks: Google Play refuses 64-bit libraries whose loadable segments are not
 * aligned to 16 KB (apps targeting Android 15+, from 1 November 2025), and native code for a
 * 32-bit ABI without the matching 64-bit one (since August 2019). docs/checks.md has the rules.
 * Reads only each library's ELF header and program headers.
 */
import { PLAY_FINDINGS, PLAY_FINDING_MESSAGES, type UnalignedLibrary } from '@aabify/shared/playCheckTexts';
import { isConverterError } from '../errors.js';
import type { ConversionWarning } from '../report.js';
import { programHeadersEnd, readElfLoadSegments, type ElfReading } from './elf.js';
import { sdkOfLibrary } from './knownLibraries.js';

/** A `.so` of the app: where it is, and a way to read its first bytes. */
export interface NativeLibrary {
  /** The module it belongs to (`base` for an APK's own). */
  module: string;
  /** `lib/<abi>/<name>.so`, as in the APK. */
  path: string;
  abi: string;
  /** Bytes, inflated. */
  size: number;
  readHead(length: number): Promise<Uint8Array>;
}

const SIXTEEN_KB = 16 * 1024;
/** The ABIs whose libraries Play's 16 KB check reads (its 64-bit devices). */
const ABIS_CHECKED_FOR_16KB: readonly string[] = ['arm64-v8a', 'x86_64'];
/** Each 32-bit ABI Play serves and the 64-bit ABI its devices need beside it. */
const ABI_64_OF: Readonly<Record<string, string>> = { armeabi: 'arm64-v8a', 'armeabi-v7a': 'arm64-v8a', x86: 'x86_64' };
/** Bytes read first: the ELF header and, in every library built by a real toolchain, the program headers. */
const FIRST_READ = 4096;

async function readElf(lib: NativeLibrary): Promise<ElfReading> {
  try {
    const head = await lib.readHead(FIRST_READ);
    const end = programHeadersEnd(head, lib.size);
    if (!end.ok) return end;
    return readElfLoadSegments(end.end <= head.length ? head : await lib.readHead(end.end), lib.size);
  } catch (e) {
    // Bytes that do not inflate are this library's problem; an abort or a disk error is not.
    if (isConverterError(e) && (e.code === 'CORRUPT_ENTRY' || e.code === 'SIZE_MISMATCH')) return { ok: false, problem: 'dados comprimidos inválidos' };
    throw e;
  }
}

const shownPath = (lib: NativeLibrary): string => (lib.module === 'base' ? lib.path : `${lib.module}: ${lib.path}`);
const fileName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/** Warnings for what Play would refuse in these libraries (none when all is well). */
export async function nativeLibraryFindings(libs: readonly NativeLibrary[]): Promise<ConversionWarning[]> {
  const warnings: ConversionWarning[] = [];
  const unaligned: UnalignedLibrary[] = [];
  const unreadable: { path: string; problem: string }[] = [];
  for (const lib of libs) {
    if (!ABIS_CHECKED_FOR_16KB.includes(lib.abi)) continue;
    const reading = await readElf(lib);
    if (!reading.ok) {
      unreadable.push({ path: shownPath(lib), problem: reading.problem });
    } else if (reading.elf.bits !== 64) {
      unreadable.push({ path: shownPath(lib), problem: 'ELF de 32 bits numa pasta de ABI de 64 bits' });
    } else {
      const alignment = Math.min(...reading.elf.loadAlignments);
      const sdk = sdkOfLibrary(fileName(lib.path));
      if (alignment < SIXTEEN_KB) unaligned.push({ path: shownPath(lib), alignment, ...(sdk ? { sdk } : {}) });
    }
  }
  if (unaligned.length > 0) {
    warnings.push({ code: PLAY_FINDINGS.notSixteenKb, message: PLAY_FINDING_MESSAGES.notSixteenKb(unaligned), detail: unaligned.map((l) => l.path).join('\n') });
  }
  if (unreadable.length > 0) {
    warnings.push({ code: PLAY_FINDINGS.unreadableLibrary, message: PLAY_FINDING_MESSAGES.unreadableLibrary(unreadable), detail: unreadable.map((l) => l.path).join('\n') });
  }
  const abis = new Set(libs.map((l) => l.abi));
  const missing = [...abis].sort().flatMap((abi32) => (ABI_64_OF[abi32] && !abis.has(ABI_64_OF[abi32]) ? [{ abi32, abi64: ABI_64_OF[abi32] }] : []));
  if (missing.length > 0) {
    warnings.push({ code: PLAY_FINDINGS.only32Bit, message: PLAY_FINDING_MESSAGES.only32Bit(missing), detail: missing.map((m) => `${m.abi32}→${m.abi64}`).join('\n') });
  }
  return warnings;
}
