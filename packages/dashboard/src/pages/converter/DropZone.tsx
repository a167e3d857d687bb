import { useEffect, useState } from 'react';
import { CONVERSION_MESSAGES, formatBytes } from '@aabify/shared';
import { UPLOAD_ACCEPT, checkDroppedFiles } from '../../lib/apkFile';
import { FileDrop } from '../../components/FileDrop';
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
  const [rejection, setRejection] = useState<string | null>(null);
  const [warning, setWarning] = useState<string | null>(null);
  const maxBytes = useUploadLimit();

  // Files chosen before the limit was known are checked again against it: refused (said here)
  // and handed back.
  const overLimit = files !== null && files.reduce((n, f) => n + f.size, 0) > maxBytes;
  const [limitSeen, setLimitSeen] = useState(maxBytes);
  if (limitSeen !== maxBytes) {
    setLimitSeen(maxBytes);
    if (overLimit) {
      setRejection(CONVERSION_MESSAGES.fileTooLarge(maxBytes));
      setWarning(null);
    }
  }
  useEffect(() => {
    if (overLimit) onFiles(null);
  }, [overLimit, onFiles]);

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
  return (
    <FileDrop
      files={files}
      multiple
      disabled={disabled}
      accept={UPLOAD_ACCEPT}
      prompt="Arraste e solte seu APK aqui ou clique para selecionar"
      touchPrompt="Toque para escolher seu APK"
      help={
        <>
          {DROP_ZONE_TEXTS.accepts};{' '}
          {Number.isFinite(maxBytes) ? (
            <>
              tamanho máximo <span data-testid="dropzone-max-size">{formatBytes(maxBytes)}</span> no total
            </>
          ) : (
            <span data-testid="dropzone-max-size">sem limite de tamanho</span>
          )}
        </>
      }
      zoneLabel="Selecionar APK, conjunto de splits ou OBB"
      inputLabel="Arquivos do app"
      idPrefix="dropzone"
      testIds={{ zone: 'dropzone', input: 'file-input' }}
      rejection={rejection}
      warning={warning}
      onFiles={take}
      onRemove={(f) => {
        setWarning(null);
        const rest = (files ?? []).filter((x) => x !== f);
        onFiles(rest.length > 0 && checkDroppedFiles(rest, maxBytes).ok ? rest : null);
      }}
    />
  );
}
