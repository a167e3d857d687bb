/** The theme store lives in src/theme (kept from the skeleton); re-exported beside the other stores. */
export { useTheme, THEME_STORAGE_KEY, type Theme } from '../theme/themeStore';
