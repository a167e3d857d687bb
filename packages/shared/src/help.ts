/**
 * The help centre (/ajuda, readable signed out): its pt-BR articles, the search over them, and
 * the support contact's JSON. No yup here. Screens that explain something at length link an
 * article by its slug (helpPath), never a file of the repository.
 */
export interface HelpArticle {
  slug: string;
  title: string;
  /** One sentence shown in the list and under the search results. */
  summary: string;
  /** Plain text, paragraphs separated by blank lines. */
  body: string;
}

export const HELP_ARTICLES = [
  {
    slug: 'converter',
    title: 'Como converter um APK em AAB',
    summary: 'Envie o APK, acompanhe a conversão ao vivo e baixe o Android App Bundle.',
    body: [
      'O Google Play só aceita aplicativos novos no formato Android App Bundle (AAB). O aabify lê o seu APK e monta o AAB equivalente, com o mesmo código, recursos e manifesto.',
      'No painel, abra Converter, arraste o arquivo .apk para a área indicada (ou clique para escolher) e confirme. A página da conversão mostra cada etapa ao vivo, a posição na fila e o registro (log) do que foi feito.',
      'Quando terminar, use o botão Baixar AAB. Os arquivos ficam disponíveis pelo prazo de retenção informado no painel; depois disso o registro da conversão continua no Histórico, mas o arquivo é apagado.',
      'Se a conversão falhar, o crédito volta para a sua conta e a mensagem de erro explica o motivo. Antes de publicar, confira a lista de verificação que aparece acima do botão de download.',
    ].join('\n\n'),
  },
  {
    slug: 'splits-e-obb',
    title: 'Split APKs (.apks, .xapk, .apkm) e arquivos OBB',
    summary: 'Como enviar um conjunto de APKs divididos e o que acontece com os arquivos de expansão OBB.',
    body: [
      'Além de um APK único, o aabify aceita conjuntos de APKs divididos (split APKs) nos formatos .apks, .xapk, .apkm ou um .zip com o APK base e os splits de idioma, densidade e arquitetura (ABI).',
      'Os splits são reunidos num só bundle: o Google Play volta a gerar, a partir do AAB, os APKs certos para cada aparelho. Você escolhe, nas opções da conversão, por quais dimensões o Play pode dividir (ABI, densidade, idioma).',
      'Arquivos de expansão OBB não existem no formato AAB. Cada OBB (dentro de um .xapk ou enviado junto) vira um asset pack entregue na instalação (install-time), guardado sem compressão em assets/. O relatório da conversão avisa: o código do app que lê o OBB pelo caminho do arquivo precisa passar a lê-lo pelo AssetManager.',
    ].join('\n\n'),
  },
  {
    slug: 'assinatura-e-chave-de-upload',
    title: 'Assinatura do app e a chave de upload',
    summary: 'Por que o AAB precisa ser assinado, o que é a chave de upload e como guardá-la no aabify.',
    body: [
      'Todo AAB enviado ao Google Play precisa de assinatura com a sua chave de upload. Com a Assinatura de apps do Google Play, o Google guarda a chave que assina os APKs entregues aos usuários; você só assina o que envia, com a chave de upload.',
      'Em Conta › Chave de upload você guarda o keystore (.jks ou .p12), o alias e as senhas. Ele fica criptografado e só é aberto, num processo isolado, para assinar as suas conversões quando você marca a opção de assinar.',
      'Sem keystore guardado, o AAB sai sem assinatura e você assina no seu computador (por exemplo com o jarsigner) antes de enviar. Perdeu a chave de upload? No Play Console, peça a redefinição da chave de upload; a chave de assinatura do app continua com o Google.',
      'O CLI gera uma chave de upload nova com aabify keygen.',
    ].join('\n\n'),
  },
  {
    slug: 'publicar-no-google-play',
    title: 'Publicar no Google Play',
    summary: 'Da conversão à faixa interna: conta de serviço, chave JSON e o botão Publicar.',
    body: [
      'O aabify publica o AAB convertido numa faixa do Google Play (interna, fechada, aberta ou produção) usando uma conta de serviço do Google Cloud com acesso ao seu app.',
      'Para criar a conta de serviço: no Google Cloud, abra IAM › Contas de serviço, crie uma conta, e em Chaves › Adicionar chave › JSON baixe o arquivo. No Play Console, abra Usuários e permissões › Convidar novos usuários, informe o e-mail da conta de serviço e dê a ela permissão de lançar versões no app.',
      'Em Conta › Google Play envie o arquivo JSON e use Testar chave. Depois, na página de uma conversão concluída, escolha a faixa e publique; o andamento aparece ao vivo.',
      'O primeiro envio de um app novo precisa ser feito pelo Play Console: a API do Google Play só aceita apps que já existem lá.',
    ].join('\n\n'),
  },
  {
    slug: 'planos-e-pagamentos',
    title: 'Planos, créditos e pagamentos',
    summary: 'Créditos e assinatura mensal, pagamento por PIX, o que acontece quando um pagamento falha.',
    body: [
      'Há dois tipos de plano. No plano de créditos, cada conversão concluída usa um crédito; uma conversão que falha ou é cancelada devolve o crédito. Na assinatura, você converte sem limite até a data de vencimento.',
      'O pagamento é feito por PIX: escolha o plano em Planos, copie o código ou leia o QR code no app do seu banco. Assim que o pagamento é confirmado o plano é ativado, sem precisar recarregar a página.',
      'Pagamento recusado ou expirado? Nada foi cobrado: gere uma nova cobrança em Planos. Pagou e o plano não ativou em alguns minutos? Fale com o suporte informando a data e o valor. Suas compras ficam em Conta › Minhas compras.',
    ].join('\n\n'),
  },
  {
    slug: 'cli-e-ci',
    title: 'O CLI do aabify e pipelines de CI',
    summary: 'Converta pela linha de comando e em GitHub Actions, GitLab CI, Bitrise ou CircleCI.',
    body: [
      'O CLI aabify converte no seu computador (aabify convert --local app.apk -o app.aab, sem servidor) ou pelo serviço, com a sua conta: aabify login --url <endereço do serviço> e depois aabify convert app.apk --wait -o app.aab.',
      'Em um pipeline de CI, não use a sua senha: crie um token de API (Conta › Tokens de API) e guarde-o como o segredo AABIFY_TOKEN, com o endereço do serviço em AABIFY_URL. O mesmo comando aabify convert app.apk --wait -o app.aab funciona em qualquer CI.',
      'Outros comandos úteis: aabify check app.apk (a lista de verificação do Google Play antes de enviar), aabify status, aabify logs --follow, aabify download e aabify history. Com --json a saída é legível por máquinas.',
    ].join('\n\n'),
  },
  {
    slug: 'tokens-de-api',
    title: 'Tokens de API',
    summary: 'Tokens com escopos para o CLI, pipelines e integrações, e a referência da API.',
    body: [
      'Um token de API age pela sua conta dentro dos escopos escolhidos na criação: leitura, conversões, downloads e publicação no Google Play. Ele nunca altera a conta (senha, chaves, tokens) nem tem acesso de administrador.',
      'Crie tokens em Conta › Tokens de API; o segredo aparece uma única vez. Crie um token para cada lugar onde ele será usado e revogue o que não reconhecer.',
      'Envie o token no cabeçalho Authorization: Bearer aab_…. A referência completa da API, com cada rota e os escopos que ela exige, está em /api/docs.',
    ].join('\n\n'),
  },
] as const satisfies readonly HelpArticle[];

export type HelpArticleSlug = (typeof HELP_ARTICLES)[number]['slug'];

export const HELP_PATH = '/ajuda';

export function helpPath(slug?: HelpArticleSlug): string {
  return slug ? `${HELP_PATH}/${slug}` : HELP_PATH;
}

export function helpArticle(slug: string): HelpArticle | undefined {
  return HELP_ARTICLES.find((a) => a.slug === slug);
}

/** Lowercase without accents: "Assinatura" and "assinatura", "publicação" and "publicacao" match. */
export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * Articles holding every word of the query, best first: a word in the title counts more than in
 * the text. An empty query answers every article in its order.
 */
export function searchHelp(query: string, articles: readonly HelpArticle[] = HELP_ARTICLES): HelpArticle[] {
  const words = foldForSearch(query).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  if (words.length === 0) return [...articles];
  const scored: Array<{ article: HelpArticle; score: number }> = [];
  for (const article of articles) {
    const title = foldForSearch(article.title);
    const text = foldForSearch(`${article.summary} ${article.body}`);
    let score = 0;
    for (const word of words) {
      if (title.includes(word)) score += 3;
      else if (text.includes(word)) score += 1;
      else {
        score = 0;
        break;
      }
    }
    if (score > 0) scored.push({ article, score });
  }
  return scored.sort((a, b) => b.score - a.score).map((s) => s.article);
}

/** GET /api/support: how customers reach the operator (settings support.email, support.whatsapp). */
export interface SupportContact {
  email: string | null;
  /** A https://wa.me/… link. */
  whatsapp: string | null;
}

export const HELP_MESSAGES = {
  searchLabel: 'Buscar na ajuda',
  searchPlaceholder: 'Ex.: assinatura, PIX, token',
  noResults: 'Nenhum artigo encontrado. Tente outras palavras ou fale com o suporte.',
  supportTitle: 'Fale com o suporte',
  supportMissing: 'O contato de suporte ainda não foi configurado pelo administrador do serviço.',
  apiReference: 'Referência da API',
} as const;
