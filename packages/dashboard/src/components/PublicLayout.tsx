import type { ReactNode } from 'react';
import Container from 'react-bootstrap/Container';
import { Link } from 'react-router-dom';
import { useSession } from '../stores/session';
import { usePageTitle } from './PageHeader';
import { ThemeToggle } from './ThemeToggle';

/**
 * The pages anyone can read, signed in or not (Termos de Uso, Política de Privacidade, Ajuda):
 * the brand, the theme toggle, the way back (to the panel or to sign-in) and links between them.
 */
export function PublicLayout({ title, children }: { title: string; children: ReactNode }) {
  usePageTitle(title);
  const signedIn = useSession((s) => Boolean(s.token));
  return (
    <Container as="main" className="py-4" style={{ maxWidth: 880 }}>
      <div className="d-flex justify-content-between align-items-center mb-4 gap-2 flex-wrap">
        <Link to="/" className="fs-4 fw-bold text-decoration-none text-body" aria-label="aabify">
          aab<span className="text-primary-emphasis">ify</span>
        </Link>
        <div className="d-flex align-items-center gap-3">
          <Link to={signedIn ? '/' : '/login'}>{signedIn ? 'Voltar ao painel' : 'Entrar'}</Link>
          <ThemeToggle />
        </div>
      </div>
      <h1 className="h3 mb-3">{title}</h1>
      {children}
      <footer className="border-top mt-5 pt-3 small text-body-secondary d-flex gap-3 flex-wrap">
        <Link to="/ajuda">Ajuda</Link>
        <Link to="/termos">Termos de Uso</Link>
        <Link to="/privacidade">Política de Privacidade</Link>
      </footer>
    </Container>
  );
}

/** Plain text with paragraphs separated by blank lines (the legal documents, help articles). */
export function Paragraphs({ text }: { text: string }) {
  return (
    <>
      {text
        .split(/\n\s*\n/)
        .map((p) => p.trim())
        .filter(Boolean)
        .map((p, i) => (
          <p key={i} style={{ whiteSpace: 'pre-line' }}>
            {p}
          </p>
        ))}
    </>
  );
}
