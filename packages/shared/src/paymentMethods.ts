/** How a payment was made (plans' analytics and purchases both name it; kept apart so neither imports the other). */

/** 'other' is what a hosted checkout may take that is none of these (e.g. a wallet balance). */
export const PAYMENT_METHODS = ['pix', 'card', 'boleto', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = { pix: 'PIX', card: 'Cartão', boleto: 'Boleto', other: 'Outro' };
