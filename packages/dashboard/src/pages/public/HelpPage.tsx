import { useState } from 'react';
import Form from 'react-bootstrap/Form';
import ListGroup from 'react-bootstrap/ListGroup';
import { Link, useParams } from 'react-router-dom';
import { HELP_MESSAGES, helpArticle, helpPath, searchHelp } from '@aabify/shared';
import { Paragraphs, PublicLayout } from '../../components/PublicLayout';
import { SupportContact } from '../../components/SupportContact';

/** /ajuda: the articles with a search box (accents and case do not matter), and the support contact. */
export function HelpPage() {
  const [query, setQuery] = useState('');
  const found = searchHelp(query);
  return (
    <PublicLayout title="Ajuda">
      <Form.Group controlId="help-search" className="mb-3" role="search">
        <Form.Label>{HELP_MESSAGES.searchLabel}</Form.Label>
        <Form.Control type="search" value={query} placeholder={HELP_MESSAGES.searchPlaceholder} onChange={(e) => setQuery(e.currentTarget.value)} />
      </Form.Group>
      {found.length === 0 ? (
        <p className="text-body-secondary" data-testid="help-no-results">
          {HELP_MESSAGES.noResults}
        </p>
      ) : (
        <ListGroup data-testid="help-results">
          {found.map((a) => (
            <ListGroup.Item key={a.slug} action as={Link} to={`${helpPath()}/${a.slug}`} data-testid="help-result">
              <div className="fw-semibold">{a.title}</div>
              <div className="small text-body-secondary">{a.summary}</div>
            </ListGroup.Item>
          ))}
        </ListGroup>
      )}
      <SupportContact />
      <p className="small mt-3">
        Integrações: <a href="/api/docs">{HELP_MESSAGES.apiReference}</a>
      </p>
    </PublicLayout>
  );
}

/** /ajuda/:slug: one article. */
export function HelpArticlePage() {
  const { slug = '' } = useParams();
  const article = helpArticle(slug);
  return (
    <PublicLayout title={article?.title ?? 'Artigo não encontrado'}>
      {article ? (
        <article data-testid="help-article">
          <p className="lead">{article.summary}</p>
          <Paragraphs text={article.body} />
        </article>
      ) : (
        <p>Este artigo não existe ou mudou de endereço.</p>
      )}
      <p>
        <Link to={helpPath()}>← Todos os artigos</Link>
      </p>
      <SupportContact />
    </PublicLayout>
  );
}
