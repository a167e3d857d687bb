import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';

/** A yes/no question before a destructive action; 'Cancelar' or the confirm button (`confirm-button`). */
export function ConfirmModal(props: {
  show: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  variant?: string;
  busy?: boolean;
  onConfirm(): void;
  onHide(): void;
}) {
  return (
    <Modal show={props.show} onHide={props.onHide} centered>
      <Modal.Header closeButton>
        <Modal.Title as="h2" className="h5">
          {props.title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>{props.children}</Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={props.onHide} disabled={props.busy}>
          Cancelar
        </Button>
        <Button variant={props.variant ?? 'danger'} onClick={props.onConfirm} disabled={props.busy} data-testid="confirm-button">
          {props.busy && <Spinner size="sm" className="me-1" />}
          {props.confirmLabel}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
