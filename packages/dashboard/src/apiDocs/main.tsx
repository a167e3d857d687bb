import 'bootstrap/dist/css/bootstrap.min.css';
import '../styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiReference } from './ApiReference';

// The dashboard's theme choice (or the system's), set here because the page has no inline script.
let theme: string | null = null;
try {
  theme = localStorage.getItem('aabify-theme');
} catch {
  // storage blocked: follow the system
}
if (theme !== 'light' && theme !== 'dark') theme = window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
document.documentElement.setAttribute('data-bs-theme', theme);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ApiReference />
  </StrictMode>,
);
