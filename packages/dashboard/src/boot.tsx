/** The app's start, loaded by main.tsx once React has run: API set-up, session check, first render. */
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App, loadFirstScreen } from './App';
import { configureApi } from './api/client';
import { useSession } from './stores/session';
import { signOutEverywhere } from './stores/signOut';
import { toast } from './stores/toasts';
import { useReauth } from './stores/reauth';
import { useLegalAcceptance } from './stores/legal';

configureApi({
  getToken: () => useSession.getState().token,
  // The guards see the session end and send the browser to /login.
  onUnauthorized: () => signOutEverywhere(),
  onError: (title, message) => toast.error(message, title),
  onReauthRequired: () => useReauth.getState().ask(),
  // The guards send a session limited to two-factor enrolment to Conta › Segurança.
  onTwoFactorSetupRequired: () => void useSession.getState().refreshUser(),
  onLegalAcceptanceRequired: () => useLegalAcceptance.getState().setRequired(true),
});
// A stored token is confirmed against the server (a failure ends the session), asked at boot
// beside the setup check rather than after the first render.
const signedIn = Boolean(useSession.getState().token);
if (signedIn) void useSession.getState().refreshUser();
// The first screen's chunk is on its way (a landing route's HTML preloads it) or asked now: the
// first render waits for it rather than showing a fallback for it.
await loadFirstScreen(window.location.pathname, signedIn);

// A transition: React renders the first screen in slices that yield to the browser between
// them, instead of one long task that blocks input.
const root = createRoot(document.getElementById('root')!);
startTransition(() =>
  root.render(
    <StrictMode>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </StrictMode>,
  ),
);
