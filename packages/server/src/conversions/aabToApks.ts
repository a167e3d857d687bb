/**
 * What an AAB → APK conversion builds (docs/apks.md, "On the service"): the bundle's universal
 * APK, or — with `output: "device-set"` — the device set (`.apks`) that one of the engine's device
 * profiles (the download-size estimate's) installs. The upload checks the choice (aabUpload.ts);
 * the runner takes from here the engine task and the key the output is kept under.
 */
import { ConverterError, DEVICE_PROFILES, deviceSpecOfProfile, type DeviceProfile } from '@aabify/converter';
import { isDeviceSet, type ConversionOptions, type DeviceProfileJson } from '@aabify/shared';
import { storageKeys } from '../storage/index.js';
import type { ApksTask } from './engine.js';

/** The device profiles a conversion may ask a set for, as the API lists them. */
export function deviceProfilesJson(): DeviceProfileJson[] {
  return DEVICE_PROFILES.map(({ id, label }) => ({ id, label }));
}

export interface ApksBuild {
  /** Where the output is kept. */
  key: string;
  /** The output's extension (the scratch file's too). */
  extension: 'apk' | 'apks';
  /** The profile a device set is built for. */
  device?: DeviceProfile;
  task(input: string, output: string): ApksTask;
}

/** The build a conversion's options ask for. */
export function apksBuildOf(conversionId: string, options: ConversionOptions): ApksBuild {
  if (!isDeviceSet(options)) return { key: storageKeys.apkOutput(conversionId), extension: 'apk', task: (input, output) => ({ kind: 'universal-apk', input, output }) };
  const device = DEVICE_PROFILES.find((p) => p.id === options.device);
  // The upload took only known profiles; one the engine no longer has fails the run, coded.
  if (!device) throw new ConverterError('INVALID_DEVICE_SPEC', `perfil de aparelho desconhecido: ${String(options.device)}`, { input: 'aab' });
  const deviceSpec = deviceSpecOfProfile(device);
  return { key: storageKeys.apksOutput(conversionId), extension: 'apks', device, task: (input, output) => ({ kind: 'device-set', input, output, deviceSpec }) };
}
