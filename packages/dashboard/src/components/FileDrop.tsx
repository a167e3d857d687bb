import { formatBytes } from '@aabify/shared';
import { useRef, useState, type DragEvent, type KeyboardEvent, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import { Icon } from './Icon';
import { TOUCH_QUERY, useMediaQuery } from './useMediaQuery';

interface FileDropProps {
  /** The files chosen (each shown under the zone with a remove button). */
  files: readonly File[] | null;
  /** Several files at once (the input's `multiple`). */
  multiple?: boolean;
  disabled?: boolean;
  /** `accept` of the hidden input ('.p12,.jks'). */
  accept: string;
  /** What the zone says ('Arraste e solte seu APK aqui ou clique para selecionar'). */
  prompt: string;
  /** What it says on a touch screen, where nothing is dragged ('Toque para escolher seu APK'). */
  touchPrompt: string;
  /** The rule under it (types, size). */
  help: ReactNode;
  /** What the zone does, for screen readers, after its visible words ('Selecionar APK…'). */
  zoneLabel: string;
  /** The hidden input's accessible name. */
  inputLabel: string;
  onFiles(files: File[]): void;
  onRemove(file: File): void;
  rejection?: string | null;
  warning?: string | null;
  invalid?: boolean;
  idPrefix: string;
  testIds?: { zone?: string; input?: string };
}

/**
 * The one file picker of the dashboard: drag and drop or click (Enter or Space from the
 * keyboard), in pt-BR — never the browser's own 'Choose File / No file chosen'.
 */
export function FileDrop(props: FileDropProps) {
  const { files, disabled = false, idPrefix } = props;
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const touch = useMediaQuery(TOUCH_QUERY, false);
  const open = () => !disabled && input.current?.click();
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (!disabled) props.onFiles(Array.from(e.dataTransfer.files));
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open();
    }
  };
  const bad = Boolean(props.rejection) || props.invalid;
  return (
    <div>
      <div
        role="button"
        tabIndex={disabled ? -1 : 0}
        aria-disabled={disabled}
        // Named by its own words (prompt, purpose, rule): what is seen is what a voice user says.
        className={`drop-zone ${dragging ? 'dragging' : ''} ${bad ? 'rejected' : ''} ${disabled ? 'opacity-50' : ''}`}
        onClick={open}
        onKeyDown={onKey}
        onDragOver={(e) => {
          e.preventDefault();
          if (!disabled) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid={props.testIds?.zone}
      >
        <div className="fs-1 text-primary-emphasis" aria-hidden="true">
          <Icon name="cloud-upload" />
        </div>
        <span className="visually-hidden" id={`${idPrefix}-purpose`}>
          ({props.zoneLabel})
        </span>
        <p className="mb-1 fw-semibold">{dragging ? (props.multiple ? 'Solte os arquivos aqui' : 'Solte o arquivo aqui') : touch ? props.touchPrompt : props.prompt}</p>
        <p className="mb-0 small text-body-secondary" id={`${idPrefix}-help`}>
          {props.help}
        </p>
        <input
          ref={input}
          type="file"
          accept={props.accept}
          multiple={props.multiple}
          className="d-none"
          aria-label={props.inputLabel}
          data-testid={props.testIds?.input}
          onChange={(e) => {
            props.onFiles(Array.from(e.target.files ?? []));
            e.target.value = '';
          }}
        />
      </div>
      {props.rejection && (
        <div className="text-danger-emphasis mt-2" role="alert" data-testid="file-rejection" id={`${idPrefix}-error`}>
          {props.rejection}
        </div>
      )}
      {props.warning && !props.rejection && (
        <div className="text-warning-emphasis small mt-2" data-testid="file-warning">
          {props.warning}
        </div>
      )}
      {files?.map((file) => (
        <div key={`${file.name}-${file.size}`} className="d-flex align-items-center justify-content-between gap-2 mt-3 p-2 border rounded" data-testid="chosen-file">
          <div className="min-w-0 text-truncate" title={file.name}>
            <strong>{file.name}</strong> <span className="text-body-secondary">({formatBytes(file.size)})</span>
          </div>
          <Button variant="outline-danger" size="sm" disabled={disabled} onClick={() => props.onRemove(file)} aria-label={`Remover ${file.name}`}>
            Remover
          </Button>
        </div>
      ))}
    </div>
  );
}
