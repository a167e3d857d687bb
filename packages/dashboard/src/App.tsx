import { lazy, Suspense, useEffect, useState } from 'react';
import { Route, Routes } from 'react-router-dom';
import { authApi } from './api/auth';
import { HomeRedirect, PlansGuard, PublicOnly, RequireAdmin, RequireAuth, RequirePlan } from './components/guards';
import { Loading } from './components/Loading';
import { Shell } from './components/Shell';
import { Toasts } from './components/Toasts';
import { LoginPage } from './pages/LoginPage';
import { RegisterPage } from './pages/RegisterPage';
import { SetupPage } from './pages/SetupPage';
import { usePlanRefreshOnFocus } from './stores/planAccess';
import { useSession } from './stores/session';

// Signed-in screens load on demand: the converter (the screen customers land on) alone, the
// others as one chunk (pages/customerScreens.ts), the admin screens as their own.
const customerScreens = () => import('./pages/customerScreens');
const DashboardPage = lazy(() => customerScreens().then((m) => ({ default: m.DashboardPage })));
const ConverterPage = lazy(() => import('./pages/converter/ConverterPage'));
const ConversionPage = lazy(() => customerScreens().then((m) => ({ default: m.ConversionPage })));
const HistoryPage = lazy(() => customerScreens().then((m) => ({ default: m.HistoryPage })));
const PlansPage = lazy(() => customerScreens().then((m) => ({ default: m.PlansPage })));
const PaymentStatusPage = lazy(() => customerScreens().then((m) => ({ default: m.PaymentStatusPage })));
const KeystorePage = lazy(() => customerScreens().then((m) => ({ default: m.KeystorePage })));
const PurchasesPage = lazy(() => customerScreens().then((m) => ({ default: m.PurchasesPage })));
const PlayCredentialsPage = lazy(() => customerScreens().then((m) => ({ default: m.PlayCredentialsPage })));
const AdminRoutes = lazy(() => import('./admin/AdminRoutes'));
// The e-mailed links: open signed in or not.
const emailLinkScreens = () => import('./pages/emailLinkScreens');
const ForgotPasswordPage = lazy(() => emailLinkScreens().then((m) => ({ default: m.ForgotPasswordPage })));
const ResetPasswordPage = lazy(() => emailLinkScreens().then((m) => ({ default: m.ResetPasswordPage })));
const VerifyEmailPage = lazy(() => emailLinkScreens().then((m) => ({ default: m.VerifyEmailPage })));

type SetupState = 'checking' | 'required' | 'done';

/**
 * GET /setup/status, asked once at boot beside the session check (no request waits for the
 * other); a failed check counts as no setup needed (spec §2.1).
 */
const setupCheck: Promise<SetupState> = authApi
  .setupStatus()
  .then((r): SetupState => (r.requiresSetup ? 'required' : 'done'))
  .catch((): SetupState => 'done');

/**
 * The setup state for rendering. A stored session means an account exists, so its screens
 * render at once and the check, still made, only turns them into the setup screen should the
 * server say otherwise; a visitor without one waits for the answer (no login flash on a first run).
 */
function useSetupState(): SetupState {
  const [state, setState] = useState<SetupState>(() => (useSession.getState().token ? 'done' : 'checking'));
  useEffect(() => {
    let live = true;
    void setupCheck.then((s) => live && setState(s));
    return () => {
      live = false;
    };
  }, []);
  return state;
}

export function App() {
  const setup = useSetupState();
  usePlanRefreshOnFocus();

  let content;
  if (setup === 'checking') content = <Loading />;
  else if (setup === 'required') content = <SetupPage />;
  else
    content = (
      <Suspense fallback={<Loading />}>
        <Routes>
          <Route path="/login" element={<PublicOnly><LoginPage /></PublicOnly>} />
          <Route path="/register" element={<PublicOnly><RegisterPage /></PublicOnly>} />
          <Route path="/forgot-password" element={<ForgotPasswordPage />} />
          <Route path="/reset-password" element={<ResetPasswordPage />} />
          <Route path="/verify-email" element={<VerifyEmailPage />} />
          <Route element={<RequireAuth><Shell /></RequireAuth>}>
            <Route path="/" element={<HomeRedirect />} />
            <Route path="/dashboard" element={<RequirePlan adminTo="/admin"><DashboardPage /></RequirePlan>} />
            <Route path="/converter" element={<RequirePlan><ConverterPage /></RequirePlan>} />
            {/* Own conversion (or any, for an admin): no plan needed to see what one already converted. */}
            <Route path="/conversions/:id" element={<ConversionPage />} />
            <Route path="/history" element={<RequirePlan fallback="/dashboard"><HistoryPage /></RequirePlan>} />
            <Route path="/plans" element={<PlansGuard><PlansPage /></PlansGuard>} />
            <Route path="/payment-status" element={<PaymentStatusPage />} />
            <Route path="/purchases" element={<PurchasesPage />} />
            <Route path="/account/keystore" element={<KeystorePage />} />
            <Route path="/account/google-play" element={<PlayCredentialsPage />} />
            <Route path="/admin/*" element={<RequireAdmin><AdminRoutes /></RequireAdmin>} />
            <Route path="*" element={<HomeRedirect />} />
          </Route>
        </Routes>
      </Suspense>
    );
  return (
    <>
      {content}
      <Toasts />
    </>
  );
}
