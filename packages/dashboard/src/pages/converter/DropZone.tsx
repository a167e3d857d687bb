import { useEffect, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import Button from 'react-bootstrap/Button';
import { CONVERSION_MESSAGES } from '@aabify/shared';
import { APK_MIME, checkDroppedFiles } from '../../lib/apkFile';
import { formatBytes } from '../../lib/format';
import { useUploadLimit } from './useUploadLimit';

interface DropZoneProps {
  file: File | null;
  disabled: boolean;
  onFile(file: File | null, warning?: string): void;
}

/**
 * One APK by drag and drop or click (keyboard: Enter or Space); the first rejection shown. The
 * maximum size is the admin setting upload.maxFileSize (GET /conversion/limits).
 */
export function DropZone({ file, disabled, onFile }: DropZoneProps) {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [rejection, setRejection] = useState<string | null>(null);
  const [warning, setWarning] = useState<string | null>(null);
  const maxBytes = useUploadLimit();

  // A file chosen before the limit was known is checked again against it.
  useEffect(() => {
    if (file && file.size > maxBytes) {
      setRejection(CONVERSION_MESSAGES.fileTooLarge(maxBytes));
      setWarning(null);
      onFile(null);
    }
  }, [maxBytes, file, onFile]);

  const take = (files: File[]) => {
    const check = checkDroppedFiles(files, maxBytes);
    if (!check.ok) {
      setRejection(check.error);
      setWarning(null);
      onFile(null);
      return;
    }
    setRejection(null);
    setWarning(check.warning ?? null);
    onFile(files[0]!, check.warning);
  };
  const open = () => !disabled && input.current?.click();
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (!disabled) take(Array.from(e.dataTransfer.files));
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open();
    }
  };

  return (
    <div>
      <div
        role="button"
        tabIndex={disabled ? -1 : 0}
        aria-disabled={disabled}
        aria-describedby="dropzone-help"
        aria-label="Selecionar arquivo APK"
        className={`drop-zone ${dragging ? 'dragging' : ''} ${rejection ? 'rejected' : ''} ${disabled ? 'opacity-50' : ''}`}
        onClick={open}
        onKeyDown={onKey}
        onDragOver={(e) => {
          e.preventDefault();
          if (!disabled) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="dropzone"
      >
        <div className="fs-1" aria-hidden="true">
          ⬆
        </div>
        <p className="mb-1 fw-semibold">{dragging ? 'Solte o arquivo aqui' : 'Arraste e solte seu APK aqui ou clique para selecionar'}</p>
        <p className="mb-0 small text-body-secondary" id="dropzone-help">
          Apenas um arquivo .apk,{' '}
          {Number.isFinite(maxBytes) ? (
            <>
              tamanho máximo <span data-testid="dropzone-max-size">{formatBytes(maxBytes)}</span>
            </>
          ) : (
            <span data-testid="dropzone-max-size">sem limite de tamanho</span>
          )}
        </p>
        <input
          ref={input}
          type="file"
          accept={`${APK_MIME},.apk`}
          className="d-none"
          data-testid="file-input"
          onChange={(e) => {
            take(Array.from(e.target.files ?? []));
            e.target.value = '';
          }}
        />
      </div>
      {rejection && (
        <div className="text-danger mt-2" role="alert" data-testid="file-rejection">
          {rejection}
        </div>
      )}
      {warning && !rejection && (
        <div className="text-warning-emphasis small mt-2" data-testid="file-warning">
          {warning}
        </div>
      )}
      {file && (
        <div className="d-flex align-items-center justify-content-between gap-2 mt-3 p-2 border rounded" data-testid="chosen-file">
          <div className="text-truncate">
            <strong className="text-break">{file.name}</strong> <span className="text-body-secondary">({formatBytes(file.size)})</span>
          </div>
          <Button
            variant="outline-danger"
            size="sm"
            disabled={disabled}
            onClick={() => {
              setWarning(null);
              onFile(null);
            }}
            aria-label={`Remover ${file.name}`}
          >
            Remover
          </Button>
        </div>
      )}
    </div>
  );
}
