import { useEffect } from 'react';
import Toast from 'react-bootstrap/Toast';
import ToastContainer from 'react-bootstrap/ToastContainer';
import { useToasts, type ToastItem } from '../stores/toasts';

function ToastView({ item }: { item: ToastItem }) {
  const dismiss = useToasts((s) => s.dismiss);
  useEffect(() => {
    const t = setTimeout(() => dismiss(item.id), item.duration);
    return () => clearTimeout(t);
  }, [item.id, item.duration, dismiss]);
  const dark = item.variant === 'danger' || item.variant === 'success';
  return (
    <Toast bg={item.variant} onClose={() => dismiss(item.id)} data-testid="toast" data-variant={item.variant}>
      {item.title ? (
        <Toast.Header closeLabel="Fechar">
          <strong className="me-auto">{item.title}</strong>
        </Toast.Header>
      ) : null}
      <Toast.Body className={`d-flex align-items-start gap-2 ${dark ? 'text-white' : ''}`}>
        <span className="flex-grow-1">{item.message}</span>
        {!item.title && (
          <button type="button" className={`btn-close ${dark ? 'btn-close-white' : ''}`} aria-label="Fechar" onClick={() => dismiss(item.id)} />
        )}
      </Toast.Body>
    </Toast>
  );
}

/** Toasts, newest at the bottom, announced politely. */
export function Toasts() {
  const toasts = useToasts((s) => s.toasts);
  return (
    <div aria-live="polite" aria-atomic="false">
      <ToastContainer className="p-3 position-fixed toast-stack">
        {toasts.map((t) => (
          <ToastView key={t.id} item={t} />
        ))}
      </ToastContainer>
    </div>
  );
}
