import { create } from 'zustand';

export type Theme = 'light' | 'dark';
/** What the person chose: a theme, or to follow the system's. */
export type ThemeChoice = Theme | 'system';
export const THEME_STORAGE_KEY = 'aabify-theme';
export const THEME_LABELS: Record<ThemeChoice, string> = { light: 'Claro', dark: 'Escuro', system: 'Sistema' };

function readStoredChoice(): ThemeChoice {
  try {
    const t = localStorage.getItem(THEME_STORAGE_KEY);
    return t === 'light' || t === 'dark' ? t : 'system';
  } catch {
    return 'system';
  }
}

const systemQuery = (): MediaQueryList | undefined => window.matchMedia?.('(prefers-color-scheme: dark)');
function systemTheme(): Theme {
  return systemQuery()?.matches ? 'dark' : 'light';
}

function apply(theme: Theme): void {
  document.documentElement.setAttribute('data-bs-theme', theme);
}

interface ThemeState {
  choice: ThemeChoice;
  /** The theme on screen. */
  theme: Theme;
  choose(choice: ThemeChoice): void;
}

/**
 * Bootstrap 5.3 colour modes: 'Claro', 'Escuro' or 'Sistema' (the default; follows the
 * system's preference, also when it changes while the page is open). index.html applies the
 * same rule before the first paint.
 */
export const useTheme = create<ThemeState>((set, get) => {
  const choice = readStoredChoice();
  const initial = choice === 'system' ? systemTheme() : choice;
  apply(initial);
  systemQuery()?.addEventListener?.('change', () => {
    if (get().choice !== 'system') return;
    const theme = systemTheme();
    apply(theme);
    set({ theme });
  });
  return {
    choice,
    theme: initial,
    choose: (next) => {
      const theme = next === 'system' ? systemTheme() : next;
      apply(theme);
      try {
        if (next === 'system') localStorage.removeItem(THEME_STORAGE_KEY);
        else localStorage.setItem(THEME_STORAGE_KEY, next);
      } catch {
        /* private mode: the choice lasts for this page only */
      }
      set({ choice: next, theme });
    },
  };
});
