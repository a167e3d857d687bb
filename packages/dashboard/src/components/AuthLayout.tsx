import type { ReactNode } from 'react';
import Card from 'react-bootstrap/Card';
import Container from 'react-bootstrap/Container';
import { usePageTitle } from './PageHeader';
import { ThemeToggle } from './ThemeToggle';

/** The centred card of the sign-in, registration and setup screens, with the theme toggle. */
export function AuthLayout({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  usePageTitle(title);
  return (
    <Container as="main" className="py-4 auth-layout">
      <div className="d-flex justify-content-between align-items-center mb-4 mx-auto" style={{ maxWidth: 440 }}>
        <span className="fs-4 fw-bold" aria-label="aabify">
          aab<span className="text-primary-emphasis">ify</span>
        </span>
        <ThemeToggle />
      </div>
      <Card className="mx-auto shadow-sm" style={{ maxWidth: 440 }}>
        <Card.Body className="p-4">
          <h1 className="h4 mb-1">{title}</h1>
          {subtitle && <p className="text-body-secondary mb-4">{subtitle}</p>}
          {children}
        </Card.Body>
      </Card>
    </Container>
  );
}
