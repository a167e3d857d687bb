import { useField } from 'formik';
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
