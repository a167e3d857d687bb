export { createSettingsService, type SettingEntry, type SettingsService, type StoredSettingState } from './service.js';
export {
  SETTING_DEFINITIONS,
  isSettingKey,
  maskSecret,
  type SettingDefinition,
  type SettingKey,
  type SettingValues,
} from './definitions.js';
export { SETTING_MESSAGES, SettingValueError } from './valueParsers.js';
