import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Nav from 'react-bootstrap/Nav';
import Offcanvas from 'react-bootstrap/Offcanvas';
import { NavLink, useLocation } from 'react-router-dom';
import { Icon } from '../components/Icon';
import { SIDEBAR_QUERY, useMediaQuery } from '../components/useMediaQuery';
import { ADMIN_NAV } from '../navigation';

function GroupedNav({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <nav aria-label="Administração" data-testid="admin-sidebar" className="admin-nav">
      {ADMIN_NAV.map((g) => (
        <div key={g.label} className="mb-3">
          <div className="admin-nav-group text-body-secondary small fw-semibold text-uppercase px-2 mb-1">{g.label}</div>
          <Nav as="ul" className="flex-column nav-pills gap-1">
            {g.entries.map((e) => (
              <Nav.Item as="li" key={e.to}>
                <Nav.Link as={NavLink} to={e.to} end={e.end} onClick={onNavigate} className="d-flex align-items-center gap-2">
                  <Icon name={e.icon} />
                  <span>{e.label}</span>
                </Nav.Link>
              </Nav.Item>
            ))}
          </Nav>
        </div>
      ))}
    </nav>
  );
}

/** The label of the admin screen the path is on (the slide-out button says where one is). */
function currentLabel(pathname: string): string {
  const all = ADMIN_NAV.flatMap((g) => g.entries);
  const exact = all.find((e) => e.to === pathname);
  const prefix = all.filter((e) => !e.end && pathname.startsWith(`${e.to}/`)).sort((a, b) => b.to.length - a.to.length)[0];
  return (exact ?? prefix)?.label ?? 'Administração';
}

/** A column beside the screens from 992 px; below, one button that slides the same menu out. */
export function AdminSidebar() {
  const wide = useMediaQuery(SIDEBAR_QUERY);
  const [open, setOpen] = useState(false);
  const location = useLocation();
  if (wide) return <GroupedNav />;
  return (
    <>
      <Button variant="outline-secondary" className="mb-3 w-100 d-flex align-items-center gap-2 text-start" onClick={() => setOpen(true)} aria-controls="admin-menu" aria-expanded={open} data-testid="admin-menu-button">
        <Icon name="list" />
        <span className="flex-grow-1 min-w-0">
          Menu de administração <span className="text-body-secondary">· {currentLabel(location.pathname)}</span>
        </span>
      </Button>
      <Offcanvas show={open} onHide={() => setOpen(false)} id="admin-menu" aria-labelledby="admin-menu-title">
        <Offcanvas.Header closeButton closeLabel="Fechar menu">
          <Offcanvas.Title id="admin-menu-title" as="h2" className="h5">
            Administração
          </Offcanvas.Title>
        </Offcanvas.Header>
        <Offcanvas.Body>
          <GroupedNav onNavigate={() => setOpen(false)} />
        </Offcanvas.Body>
      </Offcanvas>
    </>
  );
}
