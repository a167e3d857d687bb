/**
 * The pt-BR texts of what the engine finds that Google Play refuses or asks about (native
 * libraries, ABIs, test builds, exported components, restricted permissions, foreground service
 * types): the engine writes them as the conversion's warnings (code, message naming what was
 * found, detail with the items), and the pre-publication checklist (playChecklist.ts) turns those
 * warnings into its rows with what to do. Rules and sources: docs/checks.md.
 */
import { countOf } from './numbers.js';
import { restrictedPermission, shortPermissionName } from './playPermissions.js';

/** Warning codes of these findings in a conversion's report. */
export const PLAY_FINDINGS = {
  /** A 64-bit library whose PT_LOAD segments are aligned below 16 KB. */
  notSixteenKb: 'NATIVE_LIBRARY_NOT_16KB',
  /** A library whose ELF headers could not be read. */
  unreadableLibrary: 'NATIVE_LIBRARY_UNREADABLE',
  /** Native code for a 32-bit ABI without its 64-bit counterpart. */
  only32Bit: 'NATIVE_CODE_32_BIT_ONLY',
  testOnly: 'TEST_ONLY_BUILD',
  /** Activities, aliases, services or receivers with an intent-filter and no android:exported. */
  exportedUndeclared: 'EXPORTED_NOT_DECLARED',
  restrictedPermissions: 'RESTRICTED_PERMISSIONS',
  foregroundServiceType: 'FOREGROUND_SERVICE_TYPE_MISSING',
} as const;

/** Items shown in a message; the rest is counted ("e mais 3"). All of them go to the detail. */
const SHOWN = 8;

function list(items: readonly string[]): string {
  const shown = items.slice(0, SHOWN).join(', ');
  return items.length > SHOWN ? `${shown} e mais ${items.length - SHOWN}` : shown;
}

function bytes(n: number): string {
  return n >= 1024 && n % 1024 === 0 ? `${n / 1024} KB` : `${n} bytes`;
}

export interface UnalignedLibrary {
  /** As in the APK: `lib/arm64-v8a/libfoo.so` (a feature module's: `feature: lib/…`). */
  path: string;
  /** The smallest p_align of its PT_LOAD segments. */
  alignment: number;
  /** The SDK that usually ships a library of that name, when that is known. */
  sdk?: string;
}

export const PLAY_FINDING_MESSAGES = {
  notSixteenKb: (libs: readonly UnalignedLibrary[]): string =>
    `${countOf(libs.length, 'biblioteca nativa de 64 bits não suporta', 'bibliotecas nativas de 64 bits não suportam')} páginas de 16 KB (segmentos LOAD alinhados abaixo de 16 KB): ${list(
      libs.map((l) => `${l.path} (${bytes(l.alignment)}${l.sdk ? `; costuma vir de ${l.sdk}` : ''})`),
    )}.`,
  unreadableLibrary: (libs: readonly { path: string; problem: string }[]): string =>
    `Não foi possível ler o cabeçalho ELF de ${countOf(libs.length, 'biblioteca nativa', 'bibliotecas nativas')}: ${list(libs.map((l) => `${l.path} (${l.problem})`))}.`,
  only32Bit: (pairs: readonly { abi32: string; abi64: string }[]): string =>
    `Código nativo só de 32 bits: ${list(pairs.map((p) => `${p.abi32} sem ${p.abi64}`))}.`,
  testOnly: (): string => 'O manifesto declara android:testOnly="true" (um build de teste).',
  exportedUndeclared: (components: readonly { kind: string; name: string }[]): string =>
    `${countOf(components.length, 'componente com intent-filter não declara', 'componentes com intent-filter não declaram')} android:exported: ${list(components.map((c) => `<${c.kind}> ${c.name}`))}.`,
  restrictedPermissions: (names: readonly string[]): string =>
    `O app pede ${countOf(names.length, 'permissão restrita', 'permissões restritas')} pelo Google Play: ${list(
      names.map((n) => `${shortPermissionName(n)} (${restrictedPermission(n)?.policy ?? 'política de permissões'})`),
    )}.`,
  foregroundServiceType: (services: readonly { name: string; why: string }[]): string =>
    `${countOf(services.length, 'serviço em primeiro plano sem', 'serviços em primeiro plano sem')} o tipo (android:foregroundServiceType) ou a permissão que o Android 14 exige: ${list(services.map((s) => `${s.name} (${s.why})`))}.`,
} as const;
