import Button from 'react-bootstrap/Button';
import { useTheme } from '../theme/themeStore';

export function ThemeToggle() {
  const { theme, toggle } = useTheme();
  const next = theme === 'dark' ? 'claro' : 'escuro';
  return (
    <Button
      variant="outline-secondary"
      size="sm"
      onClick={toggle}
      aria-label={`Mudar para o tema ${next}`}
      title={`Mudar para o tema ${next}`}
      data-testid="theme-toggle"
    >
      <span aria-hidden="true">{theme === 'dark' ? '☀' : '☾'}</span>
    </Button>
  );
}
