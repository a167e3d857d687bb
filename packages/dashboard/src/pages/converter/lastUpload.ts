/**
 * The files of the last conversion this tab submitted, so 'Tentar Novamente' on the
 * conversion's page can send it again without asking for it (gone after a reload: the page
 * then offers the converter).
 */
let last: { conversionId: string; files: File[] } | null = null;

export const lastUpload = {
  remember(conversionId: string, files: File[]): void {
    last = { conversionId, files };
  },
  filesOf(conversionId: string): File[] | null {
    return last?.conversionId === conversionId ? last.files : null;
  },
  forget(): void {
    last = null;
  },
};
