import { useEffect, useState } from 'react';
import { HELP_MESSAGES, helpPath, type SupportContact as Contact } from '@aabify/shared';
import { Link } from 'react-router-dom';
import { helpApi } from '../api/help';

/**
 * How to reach the operator (GET /api/support): the help centre, and the dead ends where a
 * customer cannot go on alone (no plan to buy, a failed payment). `compact` is one line.
 */
export function SupportContact({ compact = false, lead }: { compact?: boolean; lead?: string }) {
  const [contact, setContact] = useState<Contact | null>(null);
  useEffect(() => {
    let live = true;
    helpApi.support().then(
      (c) => live && setContact(c),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  const links = contact && (contact.email || contact.whatsapp) && (
    <>
      {contact.email && (
        <a href={`mailto:${contact.email}`} data-testid="support-email">
          {contact.email}
        </a>
      )}
      {contact.email && contact.whatsapp && ' · '}
      {contact.whatsapp && (
        <a href={contact.whatsapp} target="_blank" rel="noopener noreferrer" data-testid="support-whatsapp">
          WhatsApp
        </a>
      )}
    </>
  );
  if (compact) {
    return (
      <p className="small mb-0" data-testid="support-contact">
        {lead ?? 'Precisa de ajuda?'} {links ? <>Fale com o suporte: {links}.</> : <Link to={helpPath()}>Veja a Ajuda.</Link>}
      </p>
    );
  }
  return (
    <section className="border rounded p-3 mt-4" data-testid="support-contact">
      <h2 className="h6">{HELP_MESSAGES.supportTitle}</h2>
      <p className="mb-0">{contact === null ? '…' : (links ?? HELP_MESSAGES.supportMissing)}</p>
    </section>
  );
}
