/**
 * The pre-publication checklist of a finished conversion: what Google Play would refuse or
 * warn about, derived from the conversion report's facts, each with what to do. Shown above
 * the download button and answered by the API, so the web page, the CLI and support read the
 * same list. docs/checks.md explains every check, with Google's rule and its date.
 */
import { PLAY_FINDINGS } from './playCheckTexts.js';
import { PLAY_RESTRICTED_PERMISSIONS, type RestrictedPermission } from './playPermissions.js';

/**
 * Google Play's target API level for new apps and app updates, by the date it applies from
 * (phones and tablets; Wear OS, Automotive, TV and XR have lower floors). Source:
 * https://developer.android.com/google/play/requirements/target-sdk and
 * https://support.google.com/googleplay/android-developer/answer/11926878 — read 2026-11-24.
 * Add a row when Google announces the next one.
 */
export const PLAY_TARGET_SDK_REQUIREMENTS: ReadonlyArray<{ from: string; minTargetSdk: number; android: string }> = [
  { from: '2023-08-31', minTargetSdk: 33, android: 'Android 13' },
  { from: '2024-08-31', minTargetSdk: 34, android: 'Android 14' },
  { from: '2025-08-31', minTargetSdk: 35, android: 'Android 15' },
  { from: '2026-08-31', minTargetSdk: 36, android: 'Android 16' },
];

/** The requirement in force at `at` (the latest row whose date has come). */
export function playTargetSdkRequirement(at: Date = new Date()): { minTargetSdk: number; android: string; from: string } {
  let current = PLAY_TARGET_SDK_REQUIREMENTS[0]!;
  for (const row of PLAY_TARGET_SDK_REQUIREMENTS) if (Date.parse(`${row.from}T00:00:00Z`) <= at.getTime()) current = row;
  return current;
}

export type PlayCheckStatus = 'ok' | 'warning' | 'blocker';
export type PlayCheckCode =
  | 'debuggable'
  | 'testOnly'
  | 'signature'
  | 'targetSdk'
  | 'pageSize16k'
  | 'abi64'
  | 'exported'
  | 'size'
  | 'versionCode'
  | 'permissions'
  | 'foregroundServiceType'
  | 'sdkVersions';

export interface PlayCheck {
  code: PlayCheckCode;
  status: PlayCheckStatus;
  /** What was found, in one line. */
  title: string;
  /** What to do about it (absent when all is well). */
  action?: string;
}

/**
 * What the checklist reads of a report: the API's stored report (ConversionReportJson) and the
 * engine's own both have it. `durations.checks` is there when the engine ran the checks of
 * native libraries and of the manifest (reports made before them have no such findings to read).
 */
export interface PlayCheckInput {
  debuggable: boolean;
  targetSdk?: number | string;
  versionCode?: number;
  versionName?: string;
  abis: readonly string[];
  warnings: readonly { code: string; message: string; detail?: string }[];
  signature?: { alias: string };
  durations?: { checks?: number };
  /** The app's versionCodes on Google Play, when the service read them with the account's Play key. */
  play?: PlayVersionCodes;
}

/**
 * What the service learnt of the app on Google Play before converting: the highest versionCode
 * (null: the app has none there yet), or why Play could not be asked (a pt-BR message and its code).
 */
export type PlayVersionCodes = { reached: true; highestVersionCode: number | null } | { reached: false; code: string; message: string };

type Report = PlayCheckInput;

function debuggable(r: Report): PlayCheck {
  if (!r.debuggable) return { code: 'debuggable', status: 'ok', title: 'Build de release (não depurável)' };
  return {
    code: 'debuggable',
    status: 'blocker',
    title: 'O APK é depurável (android:debuggable="true"): o Google Play recusa o envio',
    action: 'Gere o APK em modo release (no Gradle, buildType release, sem debuggable true) e converta de novo.',
  };
}

function signature(r: Report): PlayCheck {
  if (r.warnings.some((w) => w.code === 'DEBUG_CERTIFICATE')) {
    return {
      code: 'signature',
      status: 'blocker',
      title: 'Assinado com um certificado de depuração (CN=Android Debug): o Google Play recusa',
      action: 'Cadastre a sua chave de upload em Conta › Chave de upload e converta de novo com "Assinar o AAB".',
    };
  }
  if (r.signature) return { code: 'signature', status: 'ok', title: `Assinado com a chave de upload "${r.signature.alias}"` };
  return {
    code: 'signature',
    status: 'warning',
    title: 'O AAB não está assinado',
    action: 'O Play Console só aceita bundles assinados com a chave de upload: cadastre-a em Conta › Chave de upload e converta com "Assinar o AAB", ou assine o arquivo com jarsigner antes de enviar.',
  };
}

function targetSdk(r: Report, at: Date): PlayCheck | undefined {
  const req = playTargetSdkRequirement(at);
  if (typeof r.targetSdk !== 'number') {
    if (r.targetSdk === undefined) {
      return {
        code: 'targetSdk',
        status: 'blocker',
        title: 'O APK não declara targetSdkVersion',
        action: `Defina targetSdk ${req.minTargetSdk} (${req.android}) ou mais no build: é o mínimo que o Google Play aceita em apps novos e atualizações.`,
      };
    }
    return undefined;
  }
  if (r.targetSdk >= req.minTargetSdk) return { code: 'targetSdk', status: 'ok', title: `targetSdk ${r.targetSdk} atende ao mínimo do Google Play (${req.minTargetSdk})` };
  return {
    code: 'targetSdk',
    status: 'blocker',
    title: `targetSdk ${r.targetSdk} está abaixo do mínimo do Google Play (${req.minTargetSdk}, ${req.android})`,
    action: `Atualize o targetSdk para ${req.minTargetSdk} ou mais, teste as mudanças de comportamento dessa versão e converta de novo. O Play Console recusa apps novos e atualizações abaixo disso.`,
  };
}

/** The engine's Play size-limit warnings (its one table of limits, converter/src/bundle/playLimits.ts). */
const SIZE_WARNINGS = ['BASE_MODULE_TOO_LARGE', 'ASSET_PACK_TOO_LARGE', 'INSTALL_TIME_TOO_LARGE'];

function size(r: Report): PlayCheck {
  const over = r.warnings.filter((w) => SIZE_WARNINGS.includes(w.code));
  if (over.length === 0) return { code: 'size', status: 'ok', title: 'Tamanho dentro dos limites do Google Play' };
  return {
    code: 'size',
    status: 'blocker',
    title: over.map((w) => w.message).join(' '),
    action: 'Converta de novo movendo assets grandes para pacotes de assets (opção assetPacks, entrega fast-follow ou on-demand), ou reduza o app (recursos sem uso, R8).',
  };
}

function versionCode(r: Report): PlayCheck {
  if (r.play?.reached) return versionCodeAgainstPlay(r.versionCode, r.play.highestVersionCode ?? undefined);
  if (r.play && !r.play.reached) {
    return {
      code: 'versionCode',
      status: 'warning',
      title: `versionCode ${r.versionCode ?? '—'}: não foi possível compará-lo com o Google Play (${r.play.message})`,
      action: 'Confira no Play Console o maior versionCode já enviado: o do AAB precisa ser maior. Verifique a chave do Google Play em Conta › Google Play (Testar conexão).',
    };
  }
  if (r.warnings.some((w) => w.code === 'VERSION_CODE_MISSING')) {
    return {
      code: 'versionCode',
      status: 'warning',
      title: 'O APK não tinha versionCode: o AAB saiu com versionCode 1',
      action: 'Defina versionCode no build, maior que o da versão já publicada; o Play Console recusa um versionCode repetido.',
    };
  }
  return { code: 'versionCode', status: 'ok', title: `versionCode ${r.versionCode ?? '—'}${r.versionName ? ` (${r.versionName})` : ''}` };
}

function sdkVersions(r: Report): PlayCheck | undefined {
  const repaired = r.warnings.filter((w) => w.code.startsWith('SDK_'));
  if (repaired.length === 0) return undefined;
  return {
    code: 'sdkVersions',
    status: 'warning',
    title: repaired.map((w) => w.message).join(' '),
    action: 'Confira minSdk e targetSdk no build: use números de nível de API, não codinomes de versões de prévia.',
  };
}

const checksRan = (r: Report): boolean => typeof r.durations?.checks === 'number';
const findings = (r: Report, code: string): Report['warnings'] => r.warnings.filter((w) => w.code === code);
/**
 * Whether the app targets `level` or later. A codename (`IceCreamSandwich`, or a preview's) does
 * not count: old ones are old, and Play publishes no preview build either way.
 */
const targetsAtLeast = (r: Report, level: number): boolean => typeof r.targetSdk === 'number' && r.targetSdk >= level;
const titleOf = (ws: Report['warnings']): string => ws.map((w) => w.message).join(' ');
const ABIS_64 = ['arm64-v8a', 'x86_64'];

function testOnly(r: Report): PlayCheck | undefined {
  if (findings(r, PLAY_FINDINGS.testOnly).length === 0) return undefined;
  return {
    code: 'testOnly',
    status: 'blocker',
    title: 'O APK é um build de teste (android:testOnly="true"): o Google Play recusa o envio',
    action: 'Gere o build de release pelo Gradle (./gradlew assembleRelease ou bundleRelease) ou em Build › Generate Signed Bundle / APK: o Run do Android Studio marca o APK como testOnly.',
  };
}

function pageSize16k(r: Report): PlayCheck | undefined {
  if (!checksRan(r)) return undefined;
  const unaligned = findings(r, PLAY_FINDINGS.notSixteenKb);
  const unreadable = findings(r, PLAY_FINDINGS.unreadableLibrary);
  if (unaligned.length > 0) {
    const enforced = targetsAtLeast(r, 35);
    return {
      code: 'pageSize16k',
      status: enforced ? 'blocker' : 'warning',
      title: `${titleOf([...unaligned, ...unreadable])}${enforced ? ' O Google Play recusa o envio.' : ' O Google Play recusa isso em apps com targetSdk 35 (Android 15) ou mais — o mínimo que ele já exige.'}`,
      action:
        'Recompile o código nativo com o NDK r28 ou mais novo (alinha em 16 KB por padrão; no r27, ative o suporte a páginas de 16 KB) e atualize os SDKs que trazem as bibliotecas listadas para versões compatíveis com 16 KB; depois gere o APK de novo e converta.',
    };
  }
  if (unreadable.length > 0) {
    return {
      code: 'pageSize16k',
      status: 'warning',
      title: titleOf(unreadable),
      action: 'Confira se esses arquivos são bibliotecas ELF válidas (um .so corrompido ou que não é biblioteca não carrega no aparelho) e gere o APK de novo.',
    };
  }
  if (!r.abis.some((a) => ABIS_64.includes(a))) return undefined;
  return { code: 'pageSize16k', status: 'ok', title: 'Bibliotecas nativas de 64 bits compatíveis com páginas de 16 KB' };
}

function abi64(r: Report): PlayCheck | undefined {
  if (!checksRan(r)) return undefined;
  const only32 = findings(r, PLAY_FINDINGS.only32Bit);
  if (only32.length > 0) {
    return {
      code: 'abi64',
      status: 'blocker',
      title: `${titleOf(only32)} O Google Play exige a versão de 64 bits de todo código nativo.`,
      action:
        'Inclua as bibliotecas de 64 bits no build (arm64-v8a junto de armeabi-v7a, x86_64 junto de x86), por exemplo em ndk.abiFilters no Gradle; um SDK que só traz 32 bits precisa ser atualizado ou trocado.',
    };
  }
  const present = r.abis.filter((a) => ABIS_64.includes(a));
  if (present.length === 0) return undefined;
  return { code: 'abi64', status: 'ok', title: `Código nativo de 64 bits presente (${present.join(', ')})` };
}

function exported(r: Report): PlayCheck | undefined {
  const undeclared = findings(r, PLAY_FINDINGS.exportedUndeclared);
  if (undeclared.length === 0) return undefined;
  const enforced = targetsAtLeast(r, 31);
  return {
    code: 'exported',
    status: enforced ? 'blocker' : 'warning',
    title: `${titleOf(undeclared)}${enforced ? ' Com targetSdk 31 ou mais, o Android 12+ não instala o app e o Google Play recusa o envio.' : ' Ao subir o targetSdk para 31 ou mais (o Google Play exige 35), o Android 12+ deixa de instalar o app e o Play recusa o envio.'}`,
    action:
      'Declare android:exported em cada um: "true" nos que outros apps ou o sistema abrem (como a activity com a categoria LAUNCHER), "false" nos demais. Componentes de bibliotecas: atualize a biblioteca ou redeclare o componente no manifesto do app com android:exported.',
  };
}

function permissions(r: Report): PlayCheck | undefined {
  const found = findings(r, PLAY_FINDINGS.restrictedPermissions);
  if (found.length === 0) return undefined;
  const names = new Set(found.flatMap((w) => (w.detail ?? '').split('\n')).filter(Boolean));
  const policies: RestrictedPermission[] = PLAY_RESTRICTED_PERMISSIONS.filter((p) => p.names.some((n) => names.has(n)));
  const asks = policies.map((p) => `${p.policy}: ${p.asks} (${p.link})`).join('; ');
  return {
    code: 'permissions',
    status: 'warning',
    title: titleOf(found),
    action: `${asks ? `${asks}. ` : ''}Se o app não precisa de uma delas, remova-a do manifesto (as que vêm de bibliotecas, com tools:node="remove").`,
  };
}

function foregroundServiceType(r: Report): PlayCheck | undefined {
  const found = findings(r, PLAY_FINDINGS.foregroundServiceType);
  if (found.length === 0) return undefined;
  const enforced = targetsAtLeast(r, 34);
  return {
    code: 'foregroundServiceType',
    status: 'warning',
    title: `${titleOf(found)}${enforced ? ' Sem o tipo, startForeground() falha no Android 14+.' : ' Ao subir o targetSdk para 34 ou mais, startForeground() passa a falhar sem o tipo no Android 14+.'}`,
    action:
      'Declare android:foregroundServiceType em cada serviço que roda em primeiro plano, com a permissão FOREGROUND_SERVICE_<TIPO> de cada tipo, e preencha a declaração de serviços em primeiro plano em Conteúdo do app, no Play Console.',
  };
}

const ORDER: Record<PlayCheckStatus, number> = { blocker: 0, warning: 1, ok: 2 };

/** Every check, blockers first, then warnings, then what is fine. */
export function prePublicationChecklist(report: Report, at: Date = new Date()): PlayCheck[] {
  const checks = [
    debuggable(report),
    testOnly(report),
    signature(report),
    targetSdk(report, at),
    pageSize16k(report),
    abi64(report),
    exported(report),
    size(report),
    versionCode(report),
    permissions(report),
    foregroundServiceType(report),
    sdkVersions(report),
  ].filter(
    (c): c is PlayCheck => c !== undefined,
  );
  return checks.sort((a, b) => ORDER[a.status] - ORDER[b.status]);
}

/**
 * The versionCode row against Google Play, when the app's highest versionCode there is known
 * (bundles and APKs ever uploaded, read with the account's Play key): Play refuses a versionCode
 * it already has, so the bundle's must be greater.
 */
export function versionCodeAgainstPlay(versionCode: number | undefined, highestOnPlay: number | undefined): PlayCheck {
  if (highestOnPlay === undefined) return { code: 'versionCode', status: 'ok', title: `versionCode ${versionCode ?? '—'}: o app ainda não tem versões no Google Play` };
  if (versionCode !== undefined && versionCode > highestOnPlay) {
    return { code: 'versionCode', status: 'ok', title: `versionCode ${versionCode} é maior que o maior já enviado ao Google Play (${highestOnPlay})` };
  }
  return {
    code: 'versionCode',
    status: 'blocker',
    title: `versionCode ${versionCode ?? '—'} não é maior que o maior já enviado ao Google Play (${highestOnPlay}): o Play Console recusa o envio`,
    action: `Gere o APK com versionCode ${highestOnPlay + 1} ou mais, ou defina o versionCode do AAB na conversão: ${highestOnPlay + 1}, ou "uma acima da do Google Play" (na linha de comando, --version-code ${highestOnPlay + 1} ou --version-code play).`,
  };
}
