import { useEffect, useRef } from 'react';
import { useField, useFormikContext } from 'formik';
import Form from 'react-bootstrap/Form';

interface FormFieldProps {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
  helper?: string;
  autoFocus?: boolean;
}

/** A labelled input bound to formik, its error beside it (announced to screen readers). */
export function FormField({ name, label, type = 'text', autoComplete, helper, autoFocus }: FormFieldProps) {
  const [field, meta] = useField<string>(name);
  const id = `field-${name}`;
  const invalid = Boolean(meta.touched && meta.error);
  const describedBy = [invalid ? `${id}-error` : '', helper ? `${id}-help` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        {...field}
        value={field.value ?? ''}
        type={type}
        autoComplete={autoComplete}
        isInvalid={invalid}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        autoFocus={autoFocus}
      />
      {helper && !invalid && (
        <Form.Text id={`${id}-help`} muted>
          {helper}
        </Form.Text>
      )}
      <Form.Control.Feedback type="invalid" id={`${id}-error`} role="alert">
        {meta.error}
      </Form.Control.Feedback>
    </Form.Group>
  );
}

/**
 * Inside a Formik form: after a submit that left errors (the browser's checks or the server's
 * fields), the first invalid field is scrolled into view and focused — a long form's error is
 * never left above the fold.
 */
export function FocusFirstError() {
  const { submitCount, isSubmitting, errors } = useFormikContext();
  const marker = useRef<HTMLSpanElement>(null);
  // Once per submit: typing afterwards changes the errors but must not move the focus.
  const handled = useRef(0);
  const failed = Object.keys(errors).length > 0;
  useEffect(() => {
    if (submitCount === handled.current || isSubmitting || !failed) return;
    const first = marker.current?.closest('form')?.querySelector<HTMLElement>('[aria-invalid="true"], .is-invalid');
    if (!first) return;
    handled.current = submitCount;
    first.scrollIntoView({ block: 'center' });
    first.focus({ preventScroll: true });
  }, [submitCount, isSubmitting, failed]);
  return <span ref={marker} hidden />;
}
