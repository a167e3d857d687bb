/** Billing details, receipts (and, through the purchases' answers, NFS-e): docs/payments.md, docs/nfse.md. */
import { billingDetailsSchema } from '@aabify/shared';
import { ref } from '../components.js';
import { route } from '../route.js';

const any = ref('AnyObject');
const pdf = { media: 'application/pdf', description: 'O recibo em PDF (Content-Disposition: attachment, com filename*)' };

export const fiscalRoutes = [
  route('get', '/account/billing', 'Conta', 'Os dados de faturamento da conta (CPF ou CNPJ, nome ou razão social, e-mail, endereço), ou null', {
    auth: 'user',
    token: 'account:read',
    answer: any,
  }),
  route('put', '/account/billing', 'Conta', 'Salva os dados de faturamento (exigidos para comprar; cada compra guarda os seus como estavam)', {
    auth: 'user',
    body: billingDetailsSchema,
    answer: any,
    rateLimited: true,
  }),
  route('get', '/payments/purchase/:id/receipt', 'Pagamentos', 'O recibo em PDF de uma compra aprovada (ou estornada depois); de outro usuário: 404', {
    auth: 'user',
    token: 'account:read',
    answer: pdf,
    errors: [404, 409],
    rateLimited: true,
  }),
];
