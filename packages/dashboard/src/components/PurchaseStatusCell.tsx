/** A purchase's status as both purchase lists show it: the badge, the date that goes with it, the reason. */
import Badge from 'react-bootstrap/Badge';
import type { ApiPurchase } from '@aabify/shared';
import { formatDateTime } from '../lib/format';
import { PURCHASE_STATUS_VARIANTS, purchaseReason, purchaseStatusDate, purchaseStatusLabel } from '../lib/purchases';

export function PurchaseStatusCell({ purchase }: { purchase: ApiPurchase }) {
  const date = purchaseStatusDate(purchase);
  const reason = purchaseReason(purchase);
  return (
    <>
      <Badge
        bg={PURCHASE_STATUS_VARIANTS[purchase.status] ?? 'secondary'}
        text={purchase.status === 'pending' || purchase.status === 'refunded' ? 'dark' : undefined}
        data-testid="purchase-status"
      >
        {purchaseStatusLabel(purchase)}
      </Badge>
      {date && (
        <div className="small text-body-secondary">
          {date.label} {formatDateTime(date.at)}
        </div>
      )}
      {reason && <div className="small text-body-secondary text-break-word">Motivo: {reason}</div>}
    </>
  );
}
