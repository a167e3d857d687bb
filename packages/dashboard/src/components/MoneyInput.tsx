import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { formatMoney } from '@aabify/shared';
import { moneyText, pasteMoney, typeMoney } from '../lib/moneyInput';

interface MoneyInputProps {
  /** Cents; null when empty. */
  value: number | null;
  onChange(cents: number | null): void;
  onBlur?(): void;
  label: string;
  id?: string;
  name?: string;
  /** A validation message from the form (shown under the field). */
  error?: string;
  /** What the amount means to customers, shown under the field ('Os clientes pagarão …'). */
  preview?: (cents: number) => ReactNode;
  required?: boolean;
  disabled?: boolean;
  size?: 'sm';
  testId?: string;
}

/**
 * The one money field (BRL): 'R$' beside it, thousands grouped and a decimal comma as one
 * types, '19,90', '19.90' and 'R$ 1.234,56' all understood, two decimals on leaving the
 * field; the form gets integer cents, never a float that a comma could multiply by 100.
 */
export function MoneyInput({ value, onChange, onBlur, label, id, name, error, preview, required, disabled, size, testId }: MoneyInputProps) {
  const autoId = useId();
  const fieldId = id ?? `money-${autoId}`;
  const [text, setText] = useState(() => moneyText(value));
  const [typingError, setTypingError] = useState<string | undefined>();
  const lastEmitted = useRef<number | null>(value);
  // A value set from outside (form reset, another plan opened) replaces the text.
  useEffect(() => {
    if (value !== lastEmitted.current) {
      lastEmitted.current = value;
      setText(moneyText(value));
      setTypingError(undefined);
    }
  }, [value]);
  const emit = (cents: number | null) => {
    lastEmitted.current = cents;
    onChange(cents);
  };
  const shownError = typingError ?? error;
  const helpId = `${fieldId}-help`;
  return (
    <Form.Group className="mb-3" controlId={fieldId}>
      <Form.Label>{label}</Form.Label>
      <InputGroup size={size} hasValidation>
        <InputGroup.Text>R$</InputGroup.Text>
        <Form.Control
          name={name}
          inputMode="decimal"
          autoComplete="off"
          placeholder="0,00"
          value={text}
          required={required}
          disabled={disabled}
          isInvalid={Boolean(shownError)}
          aria-invalid={Boolean(shownError)}
          aria-describedby={helpId}
          data-testid={testId}
          onChange={(e) => {
            const next = typeMoney(text, e.target.value);
            setText(next.text);
            setTypingError(next.error);
            emit(next.cents);
          }}
          onPaste={(e) => {
            e.preventDefault();
            const next = pasteMoney(e.clipboardData.getData('text'));
            setText(next.text);
            setTypingError(next.error);
            emit(next.cents);
          }}
          onBlur={() => {
            if (lastEmitted.current !== null && !typingError) setText(moneyText(lastEmitted.current));
            onBlur?.();
          }}
        />
        <Form.Control.Feedback type="invalid" role="alert">
          {shownError}
        </Form.Control.Feedback>
      </InputGroup>
      <Form.Text id={helpId} muted data-testid={testId ? `${testId}-preview` : undefined}>
        {value !== null && !shownError ? (preview ? preview(value) : formatMoney(value)) : 'Exemplo: 19,90'}
      </Form.Text>
    </Form.Group>
  );
}
