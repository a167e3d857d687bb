import Dropdown from 'react-bootstrap/Dropdown';
import { THEME_LABELS, useTheme, type ThemeChoice } from '../theme/themeStore';
import { Icon, type IconName } from './Icon';

const CHOICES: ReadonlyArray<{ choice: ThemeChoice; icon: IconName }> = [
  { choice: 'light', icon: 'sun-fill' },
  { choice: 'dark', icon: 'moon-stars-fill' },
  { choice: 'system', icon: 'circle-half' },
];

/** 'Tema: Claro | Escuro | Sistema', with a visible label (the auth screens and the top bar). */
export function ThemeToggle() {
  const { choice, choose } = useTheme();
  const current = CHOICES.find((c) => c.choice === choice) ?? CHOICES[2]!;
  return (
    <Dropdown align="end" data-testid="theme-switch">
      <Dropdown.Toggle variant="outline-secondary" size="sm" id="theme-menu" data-testid="theme-toggle" aria-label={`Tema: ${THEME_LABELS[choice]}`}>
        <Icon name={current.icon} className="me-1" />
        <span>Tema: {THEME_LABELS[choice]}</span>
      </Dropdown.Toggle>
      <Dropdown.Menu popperConfig={{ strategy: 'fixed' }} renderOnMount>
        {CHOICES.map((c) => (
          <Dropdown.Item
            key={c.choice}
            as="button"
            role="menuitemradio"
            aria-checked={choice === c.choice}
            active={choice === c.choice}
            onClick={() => choose(c.choice)}
            data-theme-choice={c.choice}
          >
            <Icon name={c.icon} className="me-2" />
            {THEME_LABELS[c.choice]}
          </Dropdown.Item>
        ))}
      </Dropdown.Menu>
    </Dropdown>
  );
}
