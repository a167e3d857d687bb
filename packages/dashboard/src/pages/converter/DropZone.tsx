import { useEffect, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import Button from 'react-bootstrap/Button';
import { CONVERSION_MESSAGES } from '@aabify/shared';
import { UPLOAD_ACCEPT, checkDroppedFiles } from '../../lib/apkFile';
import { formatBytes } from '../../lib/format';
import { useUploadLimit } from './useUploadLimit';

interface DropZoneProps {
  files: File[] | null;
  disabled: boolean;
  onFiles(files: File[] | null, warning?: string): void;
}

export const DROP_ZONE_TEXTS = {
  accepts: 'Um APK, um conjunto de splits (.apks, .xapk, .apkm ou .zip) ou vários APKs do mesmo app, com os arquivos .obb se houver',
} as const;

/**
 * The files of one conversion by drag and drop or click (keyboard: Enter or Space): an APK, a
 * split set, more APKs of the app, OBB files; the first rejection shown. The maximum size, for
 * all of them together, is the admin setting upload.maxFileSize (GET /conversion/limits).
 */
export function DropZone({ files, disabled, onFiles }: DropZoneProps) {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [rejection, setRejection] = useState<string | null>(null);
  const [warning, setWarning] = useState<string | null>(null);
  const maxBytes = useUploadLimit();

  // Files chosen before the limit was known are checked again against it.
  useEffect(() => {
    if (files && files.reduce((n, f) => n + f.size, 0) > maxBytes) {
      setRejection(CONVERSION_MESSAGES.fileTooLarge(maxBytes));
      setWarning(null);
      onFiles(null);
    }
  }, [maxBytes, files, onFiles]);

  const take = (chosen: File[]) => {
    const check = checkDroppedFiles(chosen, maxBytes);
    if (!check.ok) {
      setRejection(check.error);
      setWarning(null);
      onFiles(null);
      return;
    }
    setRejection(null);
    setWarning(check.warning ?? null);
    onFiles(chosen, check.warning);
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
        aria-label="Selecionar APK, conjunto de splits ou OBB"
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
        <p className="mb-1 fw-semibold">{dragging ? 'Solte os arquivos aqui' : 'Arraste e solte seu APK aqui ou clique para selecionar'}</p>
        <p className="mb-0 small text-body-secondary" id="dropzone-help">
          {DROP_ZONE_TEXTS.accepts};{' '}
          {Number.isFinite(maxBytes) ? (
            <>
              tamanho máximo <span data-testid="dropzone-max-size">{formatBytes(maxBytes)}</span> no total
            </>
          ) : (
            <span data-testid="dropzone-max-size">sem limite de tamanho</span>
          )}
        </p>
        <input
          ref={input}
          type="file"
          accept={UPLOAD_ACCEPT}
          multiple
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
      {files?.map((f) => (
        <div key={`${f.name}-${f.size}`} className="d-flex align-items-center justify-content-between gap-2 mt-3 p-2 border rounded" data-testid="chosen-file">
          <div className="text-truncate">
            <strong className="text-break">{f.name}</strong> <span className="text-body-secondary">({formatBytes(f.size)})</span>
          </div>
          <Button
            variant="outline-danger"
            size="sm"
            disabled={disabled}
            onClick={() => {
              setWarning(null);
              const rest = files.filter((x) => x !== f);
              onFiles(rest.length > 0 && checkDroppedFiles(rest, maxBytes).ok ? rest : null);
            }}
            aria-label={`Remover ${f.name}`}
          >
            Remover
          </Button>
        </div>
      ))}
    </div>
  );
}
