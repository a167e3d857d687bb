/**
 * /account/billing — Conta › Dados de faturamento: CPF or CNPJ, nome or razão social, the e-mail
 * for invoices and the address an NFS-e needs. Every purchase asks for them (the plans screen
 * opens this same form when they are missing) and keeps its own copy: editing them here never
 * changes an earlier receipt or note.
 */
import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import { BILLING_MESSAGES, type ApiBillingDetails } from '@aabify/shared';
import { billingApi } from '../api/fiscal';
import { BillingDetailsFormLazy } from '../components/BillingDetailsFormLazy';
import { Loading } from '../components/Loading';
import { PageHeader } from '../components/PageHeader';
import { useSession } from '../stores/session';
import { toast } from '../stores/toasts';

export default function BillingPage() {
  const email = useSession((s) => s.user?.email ?? '');
  const [saved, setSaved] = useState<ApiBillingDetails | null | undefined>(undefined);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    billingApi.get().then(
      (r) => setSaved(r.billingDetails),
      () => setFailed(true),
    );
  }, []);
  return (
    <>
      <PageHeader title="Dados de faturamento" subtitle="Quem compra: aparecem nos recibos e nas notas fiscais (NFS-e)." />
      {failed ? (
        <Alert variant="danger">Não foi possível carregar os dados de faturamento. Recarregue a página.</Alert>
      ) : saved === undefined ? (
        <Loading />
      ) : (
        <Card>
          <Card.Body>
            <p className="small text-body-secondary">Cada compra guarda os dados como estavam no momento da compra: alterá-los aqui vale para as próximas.</p>
            <BillingDetailsFormLazy
              saved={saved}
              accountEmail={email}
              submitLabel="Salvar dados de faturamento"
              onSaved={(details) => {
                setSaved(details);
                toast.success(BILLING_MESSAGES.saved);
              }}
            />
          </Card.Body>
        </Card>
      )}
    </>
  );
}
