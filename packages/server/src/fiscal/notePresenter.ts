/** A purchase's NFS-e as its buyer and admins see it. */
import { FISCAL_NOTE_STATUS_LABELS, type ApiFiscalNote, type FiscalNoteStatus } from '@aabify/shared';
import type { FiscalNote } from '../models/index.js';

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

export function presentFiscalNote(note: FiscalNote): ApiFiscalNote {
  const status: FiscalNoteStatus = note.status;
  return {
    status,
    statusLabel: FISCAL_NOTE_STATUS_LABELS[status],
    number: note.number,
    verificationCode: note.verificationCode,
    pdfUrl: note.pdfUrl,
    xmlUrl: note.xmlUrl,
    errorMessage: note.errorMessage,
    authorizedAt: iso(note.authorizedAt),
    cancelledAt: iso(note.cancelledAt),
  };
}
