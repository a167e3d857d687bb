import Container from 'react-bootstrap/Container';
import { Outlet, useLocation } from 'react-router-dom';
import { takesWholeWidth } from '../navigation';
import { TopBar } from './TopBar';
import { VerifyEmailBanner } from './VerifyEmailBanner';

/** Signed-in screens: top bar over the page. */
export function Shell() {
  const wide = takesWholeWidth(useLocation().pathname);
  return (
    <>
      <a href="#conteudo" className="visually-hidden-focusable position-absolute m-2 btn btn-primary btn-sm" style={{ zIndex: 2000 }}>
        Pular para o conteúdo
      </a>
      <TopBar />
      <Container as="main" id="conteudo" className="pb-5" tabIndex={-1} fluid={wide ? 'xxl' : undefined}>
        <VerifyEmailBanner />
        <Outlet />
      </Container>
    </>
  );
}
