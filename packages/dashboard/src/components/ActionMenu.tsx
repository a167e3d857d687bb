import Dropdown from 'react-bootstrap/Dropdown';
import { Icon, type IconName } from './Icon';

export interface Action {
  label: string;
  icon?: IconName;
  onSelect(): void;
  danger?: boolean;
  disabled?: boolean;
  /** Shown when disabled, to say why. */
  hint?: string;
  testId?: string;
}

/**
 * A row's actions behind one button. The menu floats above everything (fixed positioning,
 * mounted only when open): a table's scroll area or a card's overflow never clips it.
 */
export function ActionMenu({ label, actions, testId }: { label: string; actions: ReadonlyArray<Action | false | null | undefined>; testId?: string }) {
  const shown = actions.filter((a): a is Action => Boolean(a));
  if (shown.length === 0) return null;
  return (
    <Dropdown align="end" className="action-menu" data-testid={testId ?? 'action-menu'}>
      <Dropdown.Toggle variant="outline-secondary" size="sm" aria-label={label} title={label} className="action-menu-toggle">
        <Icon name="three-dots-vertical" />
      </Dropdown.Toggle>
      <Dropdown.Menu popperConfig={{ strategy: 'fixed' }} className="shadow">
        {shown.map((a) => (
          <Dropdown.Item
            key={a.label}
            as="button"
            onClick={a.onSelect}
            disabled={a.disabled}
            title={a.disabled ? a.hint : undefined}
            className={a.danger ? 'text-danger' : undefined}
            data-testid={a.testId}
          >
            {a.icon && <Icon name={a.icon} className="me-2" />}
            {a.label}
          </Dropdown.Item>
        ))}
      </Dropdown.Menu>
    </Dropdown>
  );
}
