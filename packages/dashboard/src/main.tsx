import 'bootstrap/dist/css/bootstrap.min.css';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './App';
import { configureApi } from './api/client';
import { useSession } from './stores/session';
import { signOutEverywhere } from './stores/signOut';
import { toast } from './stores/toasts';

configureApi({
  getToken: () => useSession.getState().token,
  // The guards see the session end and send the browser to /login.
  onUnauthorized: () => signOutEverywhere(),
  onError: (title, message) => toast.error(message, title),
});
// A stored token is confirmed against the server (a failure ends the session), asked at boot
// beside the setup check rather than after the first render.
if (useSession.getState().token) void useSession.getState().refreshUser();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>,
);
