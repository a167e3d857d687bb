/**
 * Every e-mail's text, in pt-BR, in one layout. A message is a list of blocks rendered twice
 * from the same source — HTML (inline styles, tables, escaped) and plain text — so the two
 * parts never disagree. A single-use link (password reset, confirmation) is a `secretLink`
 * block: it carries the token only when the message is delivered; the admin's view of the
 * outbox renders it hidden.
 */
import { formatMoney, isCurrency, type EmailKind } from '@aabify/shared';

export const PRODUCT_NAME = 'aabify';

export type Block =
  | { p: string }
  | { button: { label: string; path: string } }
  /** A link carrying the message's secret as `?token=`. */
  | { secretLink: { label: string; path: string } }
  | { table: Array<[string, string]> }
  | { note: string };

export interface MessageContent {
  subject: string;
  heading: string;
  blocks: Block[];
}

export interface RenderOptions {
  /** Base of every link: PUBLIC_URL, or this server's own address. */
  baseUrl: string;
  /** The single-use token; undefined renders secret links hidden (admin view). */
  secret?: string;
}

export interface RenderedMessage {
  subject: string;
  html: string;
  text: string;
}

/** Shown instead of a single-use link wherever the token is not given (the admin's outbox view). */
export const HIDDEN_LINK = '[link de uso único oculto — só o destinatário o recebe]';

const TIME_ZONE = 'America/Sao_Paulo';
const dateTime = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short', timeZone: TIME_ZONE });
const dateOnly = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'long', timeZone: TIME_ZONE });

/** '05/03/2026, 14:30 (horário de Brasília)' */
export function formatDateTime(iso: string): string {
  return `${dateTime.format(new Date(iso))} (horário de Brasília)`;
}

export function formatDate(iso: string): string {
  return dateOnly.format(new Date(iso));
}

function money(cents: unknown, currency: unknown): string {
  return formatMoney(Number(cents), isCurrency(currency) ? currency : 'BRL');
}

function minutes(seconds: number): string {
  const m = Math.max(1, Math.round(seconds / 60));
  return m === 1 ? '1 minuto' : `${m} minutos`;
}

function greeting(name: unknown): string {
  return typeof name === 'string' && name.trim() ? `Olá, ${name.trim()}!` : 'Olá!';
}

type Data = Record<string, unknown>;

/** A link's validity in words: 1 → '1 hora', 168 → '7 dias' (whole days read as days). */
export function validityText(hours: unknown): string {
  const h = Number(hours);
  if (!Number.isFinite(h) || h <= 0) return '';
  if (h >= 24 && h % 24 === 0) return h === 24 ? '1 dia' : `${h / 24} dias`;
  return h === 1 ? '1 hora' : `${h} horas`;
}
const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

/** What a finished conversion made, as its e-mail names it ('Seu AAB', 'O conjunto de APKs'). */
function finishedOutput(d: Record<string, unknown>): { mine: string; the: string } {
  if (d.kind !== 'aab-to-apks') return { mine: 'Seu AAB', the: 'O AAB' };
  return d.output === 'device-set' ? { mine: 'Seu conjunto de APKs', the: 'O conjunto de APKs' } : { mine: 'Seu APK', the: 'O APK' };
}

/** What each kind of message says, from its stored data. */
const CONTENT: { [K in EmailKind]: (d: Data) => MessageContent } = {
  welcome: (d) => ({
    subject: `Bem-vindo ao ${PRODUCT_NAME} — confirme seu e-mail`,
    heading: greeting(d.name),
    blocks: [
      { p: `Sua conta no ${PRODUCT_NAME} foi criada. Com ela você converte APKs em AAB para publicar no Google Play.` },
      { p: 'Confirme que este e-mail é seu:' },
      { secretLink: { label: 'Confirmar e-mail', path: '/verify-email' } },
      { note: `O link vale por ${validityText(d.validHours)}. Se você não criou esta conta, ignore este e-mail.` },
    ],
  }),
  verify_email: (d) => ({
    subject: `Confirme seu e-mail no ${PRODUCT_NAME}`,
    heading: greeting(d.name),
    blocks: [
      { p: 'Confirme que este e-mail é seu:' },
      { secretLink: { label: 'Confirmar e-mail', path: '/verify-email' } },
      { note: `O link vale por ${validityText(d.validHours)}. Se você não pediu este e-mail, ignore-o.` },
    ],
  }),
  registration_attempt: () => ({
    subject: 'Alguém tentou criar uma conta com seu e-mail',
    heading: 'Olá!',
    blocks: [
      { p: `Alguém tentou criar uma conta no ${PRODUCT_NAME} com seu e-mail, mas você já tem uma conta com ele. Nenhuma conta nova foi criada.` },
      { p: 'Se foi você, entre com sua senha ou crie uma nova:' },
      { button: { label: 'Entrar', path: '/login' } },
      { button: { label: 'Esqueci minha senha', path: '/forgot-password' } },
      { note: 'Se não foi você, não é preciso fazer nada: sua conta continua protegida pela sua senha.' },
    ],
  }),
  password_reset: (d) => ({
    subject: `Crie uma nova senha no ${PRODUCT_NAME}`,
    heading: greeting(d.name),
    blocks: [
      { p: `Recebemos um pedido para criar uma nova senha para sua conta no ${PRODUCT_NAME}.` },
      { secretLink: { label: 'Criar nova senha', path: '/reset-password' } },
      { note: 'O link vale por 1 hora e funciona uma única vez. Se você não pediu uma nova senha, ignore este e-mail: sua senha atual continua valendo.' },
    ],
  }),
  password_changed: (d) => ({
    subject: `Sua senha do ${PRODUCT_NAME} foi alterada`,
    heading: greeting(d.name),
    blocks: [
      { p: `A senha da sua conta foi alterada em ${formatDateTime(str(d.at))}. Todas as outras sessões foram encerradas.` },
      { p: 'Se não foi você, crie uma nova senha agora:' },
      { button: { label: 'Esqueci minha senha', path: '/forgot-password' } },
    ],
  }),
  purchase_approved: (d) => ({
    subject: `Recibo: pagamento aprovado — ${str(d.planName)}`,
    heading: 'Pagamento aprovado',
    blocks: [
      { p: 'Recebemos seu pagamento e o plano já está ativo na sua conta. Este é o seu recibo:' },
      {
        table: [
          ['Plano', str(d.planName)],
          ['Valor', money(d.amountCents, d.currency)],
          ['Data', formatDateTime(str(d.approvedAt))],
          ['Forma de pagamento', str(d.method ?? 'PIX')],
          ['ID do pagamento', str(d.paymentId)],
          ['Compra', str(d.purchaseId)],
          ...(d.grant ? [['Incluído', str(d.grant)] as [string, string]] : []),
        ],
      },
      { button: { label: 'Ver minhas compras', path: '/purchases' } },
    ],
  }),
  purchase_refunded: (d) => ({
    subject: `Reembolso da compra ${str(d.planName)}`,
    heading: 'Compra reembolsada',
    blocks: [
      { p: 'O pagamento abaixo foi reembolsado. O que não foi usado do plano saiu da sua conta.' },
      {
        table: [
          ['Plano', str(d.planName)],
          ['Valor', money(d.amountCents, d.currency)],
          ['Data do reembolso', formatDateTime(str(d.refundedAt))],
          ['ID do pagamento', str(d.paymentId)],
          ...(d.reason ? [['Motivo', str(d.reason)] as [string, string]] : []),
        ],
      },
      { button: { label: 'Ver minhas compras', path: '/purchases' } },
    ],
  }),
  pix_expired: (d) => ({
    subject: 'Sua cobrança PIX expirou sem pagamento',
    heading: 'A cobrança PIX expirou',
    blocks: [
      { p: `A cobrança PIX de ${money(d.amountCents, d.currency)} do plano ${str(d.planName)} expirou sem pagamento e foi cancelada. Nada foi cobrado.` },
      { p: 'Se ainda quiser o plano, gere uma nova cobrança:' },
      { button: { label: 'Ver planos', path: '/plans' } },
    ],
  }),
  renewal_failed: (d) => ({
    subject: `A renovação da sua assinatura ${str(d.planName)} foi recusada`,
    heading: 'Não conseguimos cobrar a renovação',
    blocks: [
      { p: `A cobrança de ${money(d.amountCents, d.currency)} da renovação automática do plano ${str(d.planName)} foi recusada pelo cartão.` },
      { p: d.expiresAt ? `O período que você já pagou continua valendo até ${formatDateTime(str(d.expiresAt))}.` : 'Nada foi cobrado e nada mudou no seu plano.' },
      { p: 'O provedor tenta cobrar de novo nos próximos dias. Para evitar a interrupção, confira o cartão cadastrado ou pague o próximo período por PIX.' },
      { button: { label: 'Ver minhas compras', path: '/purchases' } },
    ],
  }),
  plan_expiring: (d) => ({
    subject: 'Seu plano vence em 3 dias',
    heading: 'Seu plano está perto do fim',
    blocks: [
      { p: `Sua assinatura ${str(d.planName)} vence em ${formatDateTime(str(d.expiresAt))}. Depois disso as conversões param até a renovação.` },
      { button: { label: 'Renovar plano', path: '/plans' } },
    ],
  }),
  plan_expired: (d) => ({
    subject: 'Seu plano venceu',
    heading: 'Seu plano venceu',
    blocks: [
      { p: `Sua assinatura ${str(d.planName)} venceu em ${formatDateTime(str(d.expiresAt))}. Suas conversões e downloads anteriores continuam no histórico.` },
      { button: { label: 'Escolher um plano', path: '/plans' } },
    ],
  }),
  credits_low: () => ({
    subject: 'Você tem 1 crédito restante',
    heading: 'Resta 1 crédito',
    blocks: [
      { p: 'Sua conta tem 1 crédito de conversão. Para não parar no meio de uma entrega, compre mais créditos:' },
      { button: { label: 'Comprar créditos', path: '/plans' } },
    ],
  }),
  conversion_finished: (d) => ({
    subject: `Conversão concluída: ${str(d.fileName)}`,
    // AAB → APK conversions make an APK or a device's set of APKs; earlier messages have no kind and made an AAB.
    heading: `${finishedOutput(d).mine} está pronto`,
    blocks: [
      { p: `A conversão de ${str(d.fileName)} terminou em ${minutes(Number(d.durationSeconds))}. ${finishedOutput(d).the} está pronto para baixar.` },
      { button: { label: 'Abrir conversão', path: `/conversions/${str(d.conversionId)}` } },
      { note: 'Você recebe este aviso quando uma conversão leva mais de um minuto. Desligue-o em Conta › Perfil, em "Avisos por e-mail".' },
    ],
  }),
  conversion_failed: (d) => ({
    subject: `Conversão falhou: ${str(d.fileName)}`,
    heading: 'A conversão não foi concluída',
    blocks: [
      { p: `A conversão de ${str(d.fileName)} falhou depois de ${minutes(Number(d.durationSeconds))}: ${str(d.error)}` },
      { p: 'Nenhum crédito foi consumido.' },
      { button: { label: 'Ver detalhes', path: `/conversions/${str(d.conversionId)}` } },
      { note: 'Você recebe este aviso quando uma conversão leva mais de um minuto. Desligue-o em Conta › Perfil, em "Avisos por e-mail".' },
    ],
  }),
  product_news: (d) => ({
    subject: `Novidades do ${PRODUCT_NAME}: ${str(d.title)}`,
    heading: str(d.title),
    blocks: [
      ...(Array.isArray(d.paragraphs) ? d.paragraphs.map((p) => ({ p: str(p) })) : []),
      { note: 'Você recebe estas novidades porque as pediu. Desligue-as em Conta › Perfil, em "Avisos por e-mail".' },
    ],
  }),
  email_change_confirm: (d) => ({
    subject: `Confirme seu novo e-mail no ${PRODUCT_NAME}`,
    heading: 'Confirme seu novo e-mail',
    blocks: [
      { p: `Pediram para que este endereço passe a ser o e-mail de uma conta no ${PRODUCT_NAME}. O e-mail da conta só muda quando você abre este link:` },
      { secretLink: { label: 'Confirmar novo e-mail', path: '/confirm-email-change' } },
      { note: `O link vale por ${validityText(d.validHours)} e funciona uma única vez. Se você não pediu esta troca, ignore este e-mail: nada muda.` },
    ],
  }),
  email_change_notice: (d) => ({
    subject: d.applied ? `O e-mail da sua conta do ${PRODUCT_NAME} foi alterado` : `Pedido de troca do e-mail da sua conta do ${PRODUCT_NAME}`,
    heading: greeting(d.name),
    blocks: d.applied
      ? [
          { p: `O e-mail da sua conta foi alterado para ${str(d.newEmail)} em ${formatDateTime(str(d.at))}. Os próximos e-mails da conta vão para esse endereço.` },
          { p: 'Se não foi você, responda a este e-mail ou fale com o suporte agora: a conta pode ter sido acessada por outra pessoa.' },
        ]
      : [
          { p: `Foi pedido em ${formatDateTime(str(d.at))} que o e-mail da sua conta passe a ser ${str(d.newEmail)}. A troca só acontece quando alguém abre o link enviado a esse endereço.` },
          { p: 'Se não foi você, troque sua senha agora e confira as sessões ativas:' },
          { button: { label: 'Abrir Conta › Segurança', path: '/account/security' } },
        ],
  }),
  api_token_created: (d) => ({
    subject: `Novo token de API criado: ${str(d.tokenName)}`,
    heading: greeting(d.name),
    blocks: [
      { p: 'Um novo token de API foi criado na sua conta. Ele dá acesso às conversões pela CLI e por pipelines de CI.' },
      {
        table: [
          ['Nome', str(d.tokenName)],
          ['Início do token', str(d.prefix)],
          ...(Array.isArray(d.scopes) ? ([['Escopos', d.scopes.map(str).join(', ')]] as Array<[string, string]>) : []),
          ['Criado em', formatDateTime(str(d.createdAt))],
        ],
      },
      { p: 'Se não foi você, troque sua senha e revogue o token:' },
      { button: { label: 'Abrir Tokens de API', path: '/account/api-tokens' } },
    ],
  }),
  new_sign_in: (d) => ({
    subject: `Novo acesso à sua conta do ${PRODUCT_NAME}`,
    heading: greeting(d.name),
    blocks: [
      { p: 'Sua conta foi acessada de um dispositivo ou endereço que não tínhamos visto antes:' },
      { table: [['Dispositivo', str(d.device)], ['Endereço', str(d.address) || 'desconhecido'], ['Quando', formatDateTime(str(d.at))]] },
      { p: 'Se foi você, não precisa fazer nada. Se não foi, encerre a sessão em Conta › Segurança, troque sua senha e ative a verificação em duas etapas:' },
      { button: { label: 'Abrir Conta › Segurança', path: '/account/security' } },
    ],
  }),
  two_factor_changed: (d) => ({
    subject: d.enabled ? `Verificação em duas etapas ativada no ${PRODUCT_NAME}` : `Verificação em duas etapas desativada no ${PRODUCT_NAME}`,
    heading: greeting(d.name),
    blocks: [
      {
        p: d.enabled
          ? `A verificação em duas etapas foi ativada na sua conta em ${formatDateTime(str(d.at))}: o login pedirá um código do seu aplicativo autenticador.`
          : `A verificação em duas etapas foi desativada na sua conta em ${formatDateTime(str(d.at))}: o login volta a pedir só a senha.`,
      },
      { p: 'Se não foi você, troque sua senha agora e confira as sessões ativas:' },
      { button: { label: 'Abrir Conta › Segurança', path: '/account/security' } },
    ],
  }),
  data_export_ready: (d) => ({
    subject: `Seus dados do ${PRODUCT_NAME} estão prontos para baixar`,
    heading: greeting(d.name),
    blocks: [
      { p: `O arquivo com os dados da sua conta, pedido em ${formatDateTime(str(d.requestedAt))}, está pronto. Baixe-o em Conta › Meus dados, entrando na sua conta.` },
      { button: { label: 'Abrir Meus dados', path: '/account/data' } },
      { note: `O arquivo fica disponível até ${formatDateTime(str(d.expiresAt))} e depois é apagado. Se não foi você quem pediu, troque sua senha e confira as sessões ativas em Conta › Segurança.` },
    ],
  }),
  admin_notice: (d) => ({
    subject: `[${PRODUCT_NAME}] ${str(d.title)}`,
    heading: str(d.title),
    blocks: [
      { p: str(d.intro) },
      ...(Array.isArray(d.details) && d.details.length ? [{ table: (d.details as unknown[][]).map(([k, v]) => [str(k), str(v)] as [string, string]) }] : []),
      ...(d.path ? [{ button: { label: 'Abrir administração', path: str(d.path) } }] : []),
    ],
  }),
};

export function messageContent(kind: EmailKind, data: Data): MessageContent {
  return CONTENT[kind](data);
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function link(base: string, path: string, secret?: string): string {
  const url = new URL(path, `${base.replace(/\/+$/, '')}/`);
  if (secret !== undefined) url.searchParams.set('token', secret);
  return url.toString();
}

const BUTTON_STYLE =
  'display:inline-block;padding:12px 22px;background:#2563eb;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600';

function blockHtml(block: Block, opts: RenderOptions): string {
  if ('p' in block) return `<p style="margin:0 0 16px">${escapeHtml(block.p)}</p>`;
  if ('note' in block) return `<p style="margin:0 0 16px;color:#6b7280;font-size:13px">${escapeHtml(block.note)}</p>`;
  if ('table' in block) {
    const rows = block.table
      .map(([k, v]) => `<tr><td style="padding:6px 12px 6px 0;color:#6b7280">${escapeHtml(k)}</td><td style="padding:6px 0;font-weight:600">${escapeHtml(v)}</td></tr>`)
      .join('');
    return `<table role="presentation" style="border-collapse:collapse;margin:0 0 16px">${rows}</table>`;
  }
  if ('button' in block) {
    const href = link(opts.baseUrl, block.button.path);
    return `<p style="margin:0 0 16px"><a href="${escapeHtml(href)}" style="${BUTTON_STYLE}">${escapeHtml(block.button.label)}</a></p>`;
  }
  if (opts.secret === undefined) return `<p style="margin:0 0 16px"><strong>${escapeHtml(block.secretLink.label)}:</strong> ${escapeHtml(HIDDEN_LINK)}</p>`;
  const href = link(opts.baseUrl, block.secretLink.path, opts.secret);
  return (
    `<p style="margin:0 0 16px"><a href="${escapeHtml(href)}" style="${BUTTON_STYLE}">${escapeHtml(block.secretLink.label)}</a></p>` +
    `<p style="margin:0 0 16px;color:#6b7280;font-size:13px">Se o botão não abrir, copie este endereço no navegador:<br>${escapeHtml(href)}</p>`
  );
}

function blockText(block: Block, opts: RenderOptions): string {
  if ('p' in block) return block.p;
  if ('note' in block) return block.note;
  if ('table' in block) return block.table.map(([k, v]) => `${k}: ${v}`).join('\n');
  if ('button' in block) return `${block.button.label}: ${link(opts.baseUrl, block.button.path)}`;
  return `${block.secretLink.label}: ${opts.secret === undefined ? HIDDEN_LINK : link(opts.baseUrl, block.secretLink.path, opts.secret)}`;
}

/** The message in the product's layout: HTML and plain text from the same blocks. */
export function renderMessage(kind: EmailKind, data: Data, opts: RenderOptions): RenderedMessage {
  const content = messageContent(kind, data);
  const home = link(opts.baseUrl, '/');
  const footer = `Você recebeu este e-mail porque tem uma conta no ${PRODUCT_NAME} (${home}).`;
  const html = `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(content.subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif;color:#111827;line-height:1.5">
<table role="presentation" width="100%" style="border-collapse:collapse;background:#f3f4f6"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" style="max-width:560px;border-collapse:collapse;background:#ffffff;border-radius:8px">
<tr><td style="padding:20px 28px;border-bottom:1px solid #e5e7eb"><a href="${escapeHtml(home)}" style="color:#2563eb;font-size:20px;font-weight:700;text-decoration:none">${PRODUCT_NAME}</a></td></tr>
<tr><td style="padding:28px">
<h1 style="margin:0 0 16px;font-size:20px">${escapeHtml(content.heading)}</h1>
${content.blocks.map((b) => blockHtml(b, opts)).join('\n')}
</td></tr>
<tr><td style="padding:16px 28px;border-top:1px solid #e5e7eb;color:#6b7280;font-size:12px">${escapeHtml(footer)}</td></tr>
</table></td></tr></table>
</body></html>
`;
  const text = [PRODUCT_NAME, '', content.heading, '', ...content.blocks.map((b) => `${blockText(b, opts)}\n`), '--', footer, ''].join('\n');
  return { subject: content.subject, html, text };
}
