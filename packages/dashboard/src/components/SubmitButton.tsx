import type { ReactNode } from 'react';
import Button, { type ButtonProps } from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';

/** A form's submit button: disabled, with a spinner before its label, while the form is sent. */
export function SubmitButton({ busy, children, ...rest }: Omit<ButtonProps, 'type' | 'disabled'> & { busy: boolean; children: ReactNode; 'data-testid'?: string }) {
  return (
    <Button type="submit" disabled={busy} {...rest}>
      {busy && <Spinner size="sm" className="me-2" aria-hidden="true" />}
      {children}
    </Button>
  );
}
