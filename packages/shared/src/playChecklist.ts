/**
 * The pre-publication checklist of a finished conversion: what Google Play would refuse or
 * warn about, derived from the conversion report's facts, each with what to do. Shown above
 * the download button and answered by the API, so the web page, the CLI and support read the
 * same list.
 */
import type { ConversionReportJson } from './conversionReport.js';

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
export type PlayCheckCode = 'debuggable' | 'signature' | 'targetSdk' | 'size' | 'versionCode' | 'sdkVersions';

export interface PlayCheck {
  code: PlayCheckCode;
  status: PlayCheckStatus;
  /** What was found, in one line. */
  title: string;
  /** What to do about it (absent when all is well). */
  action?: string;
}

function debuggable(r: ConversionReportJson): PlayCheck {
  if (!r.debuggable) return { code: 'debuggable', status: 'ok', title: 'Build de release (não depurável)' };
  return {
    code: 'debuggable',
    status: 'blocker',
    title: 'O APK é depurável (android:debuggable="true"): o Google Play recusa o envio',
    action: 'Gere o APK em modo release (no Gradle, buildType release, sem debuggable true) e converta de novo.',
  };
}

function signature(r: ConversionReportJson): PlayCheck {
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

function targetSdk(r: ConversionReportJson, at: Date): PlayCheck | undefined {
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

function size(r: ConversionReportJson): PlayCheck {
  const over = r.warnings.filter((w) => SIZE_WARNINGS.includes(w.code));
  if (over.length === 0) return { code: 'size', status: 'ok', title: 'Tamanho dentro dos limites do Google Play' };
  return {
    code: 'size',
    status: 'blocker',
    title: over.map((w) => w.message).join(' '),
    action: 'Converta de novo movendo assets grandes para pacotes de assets (opção assetPacks, entrega fast-follow ou on-demand), ou reduza o app (recursos sem uso, R8).',
  };
}

function versionCode(r: ConversionReportJson): PlayCheck {
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

function sdkVersions(r: ConversionReportJson): PlayCheck | undefined {
  const repaired = r.warnings.filter((w) => w.code.startsWith('SDK_'));
  if (repaired.length === 0) return undefined;
  return {
    code: 'sdkVersions',
    status: 'warning',
    title: repaired.map((w) => w.message).join(' '),
    action: 'Confira minSdk e targetSdk no build: use números de nível de API, não codinomes de versões de prévia.',
  };
}

const ORDER: Record<PlayCheckStatus, number> = { blocker: 0, warning: 1, ok: 2 };

/** Every check, blockers first, then warnings, then what is fine. */
export function prePublicationChecklist(report: ConversionReportJson, at: Date = new Date()): PlayCheck[] {
  const checks = [debuggable(report), signature(report), targetSdk(report, at), size(report), versionCode(report), sdkVersions(report)].filter(
    (c): c is PlayCheck => c !== undefined,
  );
  return checks.sort((a, b) => ORDER[a.status] - ORDER[b.status]);
}
