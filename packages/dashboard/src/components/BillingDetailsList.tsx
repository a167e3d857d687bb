/** A buyer's billing details as the admin screens list them: the purchase's and the user's. */
import { billingAddressLine, type ApiBillingDetails } from '@aabify/shared';

export function BillingDetailsList({ details, className, testId }: { details: ApiBillingDetails; className: string; testId?: string }) {
  const company = details.documentKind === 'cnpj';
  return (
    <dl className={className} data-testid={testId}>
      <dt>{company ? 'Razão social' : 'Nome'}</dt>
      <dd>{details.name}</dd>
      <dt>{company ? 'CNPJ' : 'CPF'}</dt>
      <dd>{details.documentFormatted}</dd>
      <dt>E-mail para notas</dt>
      <dd>{details.email}</dd>
      <dt>Endereço</dt>
      <dd>{billingAddressLine(details)}</dd>
    </dl>
  );
}
