export { createSettingsService, type SettingEntry, type SettingsService, type StoredSettingState } from './service.js';
export {
  SETTING_DEFINITIONS,
  SETTING_MESSAGES,
  SettingValueError,
  isSettingKey,
  maskSecret,
  type SettingDefinition,
  type SettingKey,
  type SettingValues,
} from './definitions.js';
