import { create } from 'zustand';

export type Theme = 'light' | 'dark';
export const THEME_STORAGE_KEY = 'aabify-theme';

function readStoredTheme(): Theme | undefined {
  try {
    const t = localStorage.getItem(THEME_STORAGE_KEY);
    return t === 'light' || t === 'dark' ? t : undefined;
  } catch {
    return undefined;
  }
}

function systemTheme(): Theme {
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function apply(theme: Theme): void {
  document.documentElement.setAttribute('data-bs-theme', theme);
}

interface ThemeState {
  theme: Theme;
  toggle(): void;
  set(theme: Theme): void;
}

/** Bootstrap 5.3 colour modes: the stored choice wins, else the system preference. */
export const useTheme = create<ThemeState>((set, get) => {
  const initial = readStoredTheme() ?? systemTheme();
  apply(initial);
  const choose = (theme: Theme) => {
    apply(theme);
    try {
      localStorage.setItem(THEME_STORAGE_KEY, theme);
    } catch {
      /* private mode: the choice lasts for this page only */
    }
    set({ theme });
  };
  return {
    theme: initial,
    toggle: () => choose(get().theme === 'dark' ? 'light' : 'dark'),
    set: choose,
  };
});
