import { expect } from 'chai';
import { HELP_ARTICLES, foldForSearch, helpArticle, helpPath, searchHelp } from '../src/help.js';

describe('help centre articles and search', () => {
  it('search_findsAssinatura_inTheSigningAndThePlansArticles_signingFirst', () => {
    const found = searchHelp('assinatura').map((a) => a.slug);
    expect(found[0]).to.equal('assinatura-e-chave-de-upload');
    expect(found).to.include('planos-e-pagamentos');
  });

  it('search_ignoresCaseAndAccents_andNeedsEveryWord', () => {
    expect(searchHelp('PUBLICACAO GOOGLE').map((a) => a.slug)).to.include('tokens-de-api');
    expect(searchHelp('Créditos pix').map((a) => a.slug)).to.deep.equal(['planos-e-pagamentos']);
    expect(searchHelp('pix obb')).to.deep.equal([]);
    expect(searchHelp('xyzzy')).to.deep.equal([]);
    expect(searchHelp('  ')).to.have.length(HELP_ARTICLES.length);
    expect(foldForSearch('Ação')).to.equal('acao');
  });

  it('articles_haveUniqueSlugs_andCiteNoRepositoryFile', () => {
    const slugs = HELP_ARTICLES.map((a) => a.slug);
    expect(new Set(slugs).size).to.equal(slugs.length);
    for (const a of HELP_ARTICLES) {
      expect(a.body, a.slug).to.not.match(/docs\/|\.md\b/);
      expect(helpArticle(a.slug)).to.equal(a);
    }
    expect(helpPath('cli-e-ci')).to.equal('/ajuda/cli-e-ci');
    expect(helpArticle('nao-existe')).to.equal(undefined);
  });
});
