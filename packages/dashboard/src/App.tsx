import { Route, Routes } from 'react-router-dom';
import Container from 'react-bootstrap/Container';
import Navbar from 'react-bootstrap/Navbar';
import { ThemeToggle } from './components/ThemeToggle';
import { HealthPage } from './pages/HealthPage';

export function App() {
  return (
    <>
      <Navbar className="border-bottom mb-4" expand="sm">
        <Container>
          <Navbar.Brand href="/">aabify</Navbar.Brand>
          <ThemeToggle />
        </Container>
      </Navbar>
      <Container as="main">
        <Routes>
          <Route path="*" element={<HealthPage />} />
        </Routes>
      </Container>
    </>
  );
}
