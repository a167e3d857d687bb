import Container from 'react-bootstrap/Container';
import { Outlet } from 'react-router-dom';
import { TopBar } from './TopBar';
import { VerifyEmailBanner } from './VerifyEmailBanner';

/** Signed-in screens: top bar over the page. */
export function Shell() {
  return (
    <>
      <a href="#conteudo" className="visually-hidden-focusable position-absolute m-2 btn btn-primary btn-sm" style={{ zIndex: 2000 }}>
        Pular para o conteúdo
      </a>
      <TopBar />
      <Container as="main" id="conteudo" className="pb-5" tabIndex={-1}>
        <VerifyEmailBanner />
        <Outlet />
      </Container>
    </>
  );
}
