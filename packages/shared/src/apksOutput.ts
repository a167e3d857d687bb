/**
 * What an AAB → APK conversion builds (docs/apks.md, "On the service"): the bundle's universal
 * APK, one file for every device (the default), or the device set (`.apks`) that one device
 * profile installs — the profiles of the download-size estimate, which the server lists
 * (GET /conversion/device-profiles). No schemas here: the CLI imports this at start.
 */

export const APKS_OUTPUTS = ['universal', 'device-set'] as const;
export type ApksOutput = (typeof APKS_OUTPUTS)[number];

/** Whether a conversion's options ask for a device set (`output: "device-set"`). */
export function isDeviceSet(options: { output?: string } | null | undefined): boolean {
  return options?.output === 'device-set';
}

/** 'Meu App.aab' → 'Meu App.apks' (accents kept); 'app.apks' without a name. */
export function apksFileName(fileName: string | null | undefined): string {
  const base = (fileName ?? '').replace(/\.aab$/i, '');
  return `${base || 'app'}.apks`;
}

/** A device profile as the API lists it: its id (the `device` option) and its pt-BR name. */
export interface DeviceProfileJson {
  id: string;
  /** e.g. 'Celular atual (arm64-v8a, xxhdpi, pt-BR)', as the download-size estimate names it. */
  label: string;
}

/** GET /conversion/device-profiles. */
export interface DeviceProfilesResponse {
  profiles: DeviceProfileJson[];
}

/** The converter page's and the conversion page's texts of the choice. */
export const APKS_OUTPUT_TEXTS = {
  legend: 'O que gerar do AAB',
  universal: 'APK universal',
  universalHint: 'Um único APK com todos os módulos, idiomas, densidades e arquiteturas: instala em qualquer aparelho compatível.',
  deviceSet: 'Conjunto para um aparelho',
  deviceSetHint:
    'Só os APKs que o aparelho escolhido instala (base, arquitetura, densidade e idioma), como o Google Play entregaria, num arquivo .apks: instale com bundletool install-apks, ou descompacte e use adb install-multiple.',
  deviceLabel: 'Aparelho',
  profilesUnavailable: 'Não foi possível carregar os perfis de aparelho; o APK universal continua disponível.',
  /** What a finished conversion built. */
  built: 'Gerado',
  builtDeviceSet: (label: string) => `Conjunto para um aparelho: ${label}`,
  apksInSet: 'APKs do conjunto',
  download: 'Baixar APKs (.apks)',
  ready: 'Seu conjunto de APKs está pronto.',
  whatIsTitle: 'O que é este conjunto?',
  whatIs:
    'É o conjunto de APKs que o aparelho escolhido instalaria pelo Google Play: o APK base e os splits da arquitetura, da densidade de tela e do idioma dele, assinados, num arquivo .apks (um zip). Instale com bundletool install-apks --apks=arquivo.apks, ou descompacte e use adb install-multiple splits/*.apk. Para publicar no Google Play, envie o .aab, não este conjunto.',
  linkExpires: 'Atenção: o link de download expira em 1 hora. Baixe o arquivo .apks agora.',
} as const;
