import { useEffect } from 'react';
import Alert from 'react-bootstrap/Alert';
import { LEGAL_DOCUMENT_TITLES, LEGAL_MESSAGES, type LegalDocumentKind, type LegalDocumentResponse } from '@aabify/shared';
import { legalApi } from '../../api/legal';
import { Paragraphs, PublicLayout } from '../../components/PublicLayout';
import { SkeletonRows } from '../../components/Skeleton';
import { formatDate } from '../../lib/format';
import { useKeyedState } from '../../lib/useKeyedState';

/** /termos and /privacidade: the current version, readable signed out (the law wants it before sign-up). */
export function LegalDocumentPage({ kind }: { kind: LegalDocumentKind }) {
  const [doc, setDoc] = useKeyedState<LegalDocumentResponse | null>(kind, null);
  const [failed, setFailed] = useKeyedState(kind, false);
  useEffect(() => {
    let live = true;
    legalApi.document(kind).then(
      (d) => live && setDoc(d),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [kind, setDoc, setFailed]);
  return (
    <PublicLayout title={LEGAL_DOCUMENT_TITLES[kind]}>
      {failed && <Alert variant="danger">Não foi possível carregar o documento. Tente de novo em instantes.</Alert>}
      {!doc && !failed && <SkeletonRows rows={6} />}
      {doc && (
        <article data-testid={`legal-${kind}`}>
          <p className="text-body-secondary small" data-testid="legal-version">
            Versão {doc.version}
            {doc.publishedAt ? ` · publicada em ${formatDate(doc.publishedAt)}` : ''}
          </p>
          <Paragraphs text={doc.body} />
          {doc.dataProtectionOfficer && (
            <section className="mt-4" data-testid="legal-dpo">
              <h2 className="h5">{LEGAL_MESSAGES.dpoTitle}</h2>
              {doc.dataProtectionOfficer.name || doc.dataProtectionOfficer.email ? (
                <p>
                  {doc.dataProtectionOfficer.name}
                  {doc.dataProtectionOfficer.email && (
                    <>
                      {doc.dataProtectionOfficer.name ? ' — ' : ''}
                      <a href={`mailto:${doc.dataProtectionOfficer.email}`}>{doc.dataProtectionOfficer.email}</a>
                    </>
                  )}
                </p>
              ) : (
                <p>{LEGAL_MESSAGES.dpoMissing}</p>
              )}
            </section>
          )}
        </article>
      )}
    </PublicLayout>
  );
}
