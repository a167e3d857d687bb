/**
 * Google Play's size limits for what a bundle delivers, in one table with where each comes from
 * (Play counts compressed download sizes). Looked up in Google's documentation when this was
 * written: "About Android App Bundles" gives the 200 MB compressed limit of what installs
 * with the base (newer revisions of that page state 4 GB for base + configuration APKs, the
 * install-time total below); the Play Asset Delivery page gives 1.5 GB per asset pack and 4 GB
 * for everything installed with the app (the same figures Unity's and .NET's PAD guides quote).
 * The engine only reports a bundle over a limit, with the figure and the option that fixes it:
 * Play, not the engine, refuses the upload.
 */
import type { ConversionWarning, ModuleReport } from '../report.js';

export interface PlayLimit {
  bytes: number;
  what: string;
  source: string;
}

const MB = 1024 * 1024;

export const PLAY_LIMITS = {
  /** The base module's compressed download (base APK plus its configuration APKs). */
  baseModule: {
    bytes: 200 * MB,
    what: 'módulo base (download comprimido)',
    source: 'https://developer.android.com/platform/technology/app-bundle (Compressed download size restriction)',
  },
  /** Each asset pack (the largest that Play serves as one pack). */
  assetPack: {
    bytes: 1536 * MB,
    what: 'cada pacote de assets',
    source: 'https://developer.android.com/guide/playcore/asset-delivery#download-size-limits',
  },
  /** Everything installed with the app: base, install-time features and install-time asset packs. */
  installTime: {
    bytes: 4096 * MB,
    what: 'tudo o que é instalado com o app (base e pacotes install-time)',
    source: 'https://developer.android.com/guide/playcore/asset-delivery#download-size-limits',
  },
} as const satisfies Record<string, PlayLimit>;

function mb(bytes: number): string {
  return `${new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 }).format(bytes / MB)} MB`;
}

/** Warnings for every module (or the install-time whole) over Play's limit, each saying what fixes it. */
export function playLimitWarnings(modules: readonly ModuleReport[]): ConversionWarning[] {
  const out: ConversionWarning[] = [];
  const base = modules.find((m) => m.kind === 'base');
  if (base && base.sizeBytes > PLAY_LIMITS.baseModule.bytes) {
    out.push({
      code: 'BASE_MODULE_TOO_LARGE',
      message:
        `O módulo base tem ${mb(base.sizeBytes)} comprimidos (${base.sizeBytes} bytes), acima do limite de ${mb(PLAY_LIMITS.baseModule.bytes)} do Google Play: ` +
        `mova assets grandes para um pacote de assets com --asset-pack NOME=GLOB (por exemplo --asset-pack recursos=**), ou a opção assetPacks no serviço.`,
      detail: `limite: ${PLAY_LIMITS.baseModule.source}`,
    });
  }
  for (const m of modules) {
    if (m.kind === 'asset-pack' && m.sizeBytes > PLAY_LIMITS.assetPack.bytes) {
      out.push({
        code: 'ASSET_PACK_TOO_LARGE',
        message: `O pacote de assets "${m.name}" tem ${mb(m.sizeBytes)} comprimidos, acima do limite de ${mb(PLAY_LIMITS.assetPack.bytes)} por pacote do Google Play: divida-o em vários com --asset-pack NOME=GLOB.`,
        detail: `limite: ${PLAY_LIMITS.assetPack.source}`,
      });
    }
  }
  const installTime = modules
    .filter((m) => m.kind !== 'asset-pack' || m.delivery === 'install-time' || m.delivery === 'as-declared')
    .reduce((n, m) => n + m.sizeBytes, 0);
  if (installTime > PLAY_LIMITS.installTime.bytes) {
    out.push({
      code: 'INSTALL_TIME_TOO_LARGE',
      message: `O que é instalado com o app soma ${mb(installTime)} comprimidos, acima do limite de ${mb(PLAY_LIMITS.installTime.bytes)} do Google Play: entregue pacotes como fast-follow ou on-demand (--asset-delivery ou NOME=GLOB:on-demand).`,
      detail: `limite: ${PLAY_LIMITS.installTime.source}`,
    });
  }
  return out;
}
