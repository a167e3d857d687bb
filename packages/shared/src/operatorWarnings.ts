/**
 * What stops the shop, as the admin dashboard says it (GET /api/admin/dashboard/warnings): each
 * warning with what to do. The server decides which apply (admin/operatorWarnings.ts).
 */
export const OPERATOR_WARNINGS = {
  NO_BUYABLE_PLAN: {
    title: 'Nenhum plano à venda',
    problem: 'Não há plano ativo: clientes novos não conseguem comprar nem converter.',
    action: 'Crie ou ative um plano em Gerenciar Planos.',
    link: '/admin/plans',
  },
  NO_SMTP: {
    title: 'E-mails não são entregues',
    problem: 'SMTP_URL não está configurada: os e-mails (confirmação, recuperação de senha, recibos) ficam apenas na caixa de saída.',
    action: 'Defina SMTP_URL (e PUBLIC_URL) no ambiente do servidor e reinicie-o; até lá, leia os e-mails em Administração › E-mails.',
    link: '/admin/emails',
  },
  PASSWORD_RESET_UNDELIVERED: {
    title: 'Clientes pediram uma nova senha',
    problem: 'Na última semana, clientes usaram "Esqueci minha senha", mas o e-mail com o link não pode ser entregue (SMTP_URL não configurada). Eles foram orientados a falar com o suporte.',
    action: 'Veja os pedidos em Administração › E-mails (tipo "Nova senha") e atenda cada cliente; configure SMTP_URL para que recebam o link.',
    link: '/admin/emails',
  },
  NO_PUBLIC_URL: {
    title: 'Endereço público não definido',
    problem: 'PUBLIC_URL não está configurada: links em e-mails e o webhook de pagamentos não têm um endereço para apontar.',
    action: 'Defina PUBLIC_URL com o endereço https pelo qual os clientes acessam o serviço e reinicie o servidor.',
    link: null,
  },
  NO_SELLER_DATA: {
    title: 'Dados do vendedor incompletos',
    problem: 'Razão social, CNPJ, endereço ou e-mail do vendedor não estão configurados: os recibos em PDF saem sem eles.',
    action: 'Preencha os dados do vendedor em Configurações › Fiscal.',
    link: '/admin/settings',
  },
  NO_NFSE_PROVIDER: {
    title: 'Notas fiscais não são emitidas',
    problem: 'Nenhum emissor de NFS-e está configurado: as compras aprovadas não geram nota fiscal de serviço.',
    action: 'Cadastre o token da Focus NFe e os dados fiscais (código do serviço, alíquota do ISS, inscrição municipal) em Configurações › Fiscal.',
    link: '/admin/settings',
  },
} as const satisfies Record<string, { title: string; problem: string; action: string; link: string | null }>;

export type OperatorWarningCode = keyof typeof OPERATOR_WARNINGS;

export interface OperatorWarning {
  code: OperatorWarningCode;
  title: string;
  problem: string;
  action: string;
  /** A dashboard screen where it is fixed, when there is one. */
  link: string | null;
}

/** GET /api/admin/dashboard/warnings */
export interface OperatorWarningsResponse {
  warnings: OperatorWarning[];
}
