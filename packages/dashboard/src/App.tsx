import { Suspense, useEffect, useState } from 'react';
import { Route, Routes } from 'react-router-dom';
import { authApi } from './api/auth';
import { HomeRedirect, PlansGuard, PublicOnly, RequireAdmin, RequireAuth, RequirePlan } from './components/guards';
import { Loading } from './components/Loading';
import { Shell } from './components/Shell';
import { Toasts } from './components/Toasts';
import { ReauthModal } from './components/ReauthModal';
import { LegalAcceptanceGate } from './components/LegalAcceptanceGate';
import { lazyChunk, type LazyChunk } from './lib/lazyChunk';
import { usePlanRefreshOnFocus } from './stores/planAccess';
import { useSession } from './stores/session';

// Screens load on demand: the converter (the screen customers land on) alone, the customer's
// others as one chunk (pages/customerScreens.ts), the admin screens as their own, and those of
// visitors without a session with the e-mailed links' (pages/publicScreens.ts: the forms' code).
const converterScreen = lazyChunk(() => import('./pages/converter/ConverterPage'));
const customerScreens = lazyChunk(() => import('./pages/customerScreens'));
const publicScreens = lazyChunk(() => import('./pages/publicScreens'));
const DashboardPage = customerScreens.screen((m) => m.DashboardPage);
const ConverterPage = converterScreen.screen((m) => m.default);
const ConversionPage = customerScreens.screen((m) => m.ConversionPage);
const HistoryPage = customerScreens.screen((m) => m.HistoryPage);
const PlansPage = customerScreens.screen((m) => m.PlansPage);
const PaymentStatusPage = customerScreens.screen((m) => m.PaymentStatusPage);
const SandboxCheckoutPage = customerScreens.screen((m) => m.SandboxCheckoutPage);
const KeystorePage = customerScreens.screen((m) => m.KeystorePage);
const PurchasesPage = customerScreens.screen((m) => m.PurchasesPage);
const PlayCredentialsPage = customerScreens.screen((m) => m.PlayCredentialsPage);
const ApiTokensPage = customerScreens.screen((m) => m.ApiTokensPage);
const SecurityPage = customerScreens.screen((m) => m.SecurityPage);
const AccountActivityPage = customerScreens.screen((m) => m.AccountActivityPage);
const MyDataPage = customerScreens.screen((m) => m.MyDataPage);
const BillingPage = customerScreens.screen((m) => m.BillingPage);
const ProfilePage = customerScreens.screen((m) => m.ProfilePage);
const AdminRoutes = lazyChunk(() => import('./admin/AdminRoutes')).screen((m) => m.default);
const LoginPage = publicScreens.screen((m) => m.LoginPage);
const RegisterPage = publicScreens.screen((m) => m.RegisterPage);
const SetupPage = publicScreens.screen((m) => m.SetupPage);
const ForgotPasswordPage = publicScreens.screen((m) => m.ForgotPasswordPage);
const ResetPasswordPage = publicScreens.screen((m) => m.ResetPasswordPage);
const VerifyEmailPage = publicScreens.screen((m) => m.VerifyEmailPage);
const ConfirmEmailChangePage = publicScreens.screen((m) => m.ConfirmEmailChangePage);
const LegalDocumentPage = publicScreens.screen((m) => m.LegalDocumentPage);
const HelpPage = publicScreens.screen((m) => m.HelpPage);
const HelpArticlePage = publicScreens.screen((m) => m.HelpArticlePage);

/**
 * The chunks of the screens people land on, by path: the server's HTML for these paths
 * preloads their files already (LANDING_ROUTES in build.mjs).
 */
const LANDING_SCREENS: Record<string, LazyChunk<unknown>> = {
  '/converter': converterScreen,
  '/dashboard': customerScreens,
  '/login': publicScreens,
  '/register': publicScreens,
};

/**
 * Loads the chunk the first screen needs, so that the first render shows it without a fallback
 * in between: the landing screen's at its path, else, without a stored session, the public
 * screens' (the visit ends on one of them: sign-in, or setup on a first run). Never fails (the
 * lazy screen then retries).
 */
export async function loadFirstScreen(path: string, signedIn: boolean): Promise<void> {
  const chunk = LANDING_SCREENS[path.replace(/\/+$/, '')] ?? (signedIn ? undefined : publicScreens);
  await chunk?.load().catch(() => undefined);
}

type SetupState = 'checking' | 'required' | 'done';

/**
 * GET /setup/status, asked once at boot beside the session check (no request waits for the
 * other); a failed check counts as no setup needed.
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
      <Routes>
        <Route path="/login" element={<PublicOnly><LoginPage /></PublicOnly>} />
        <Route path="/register" element={<PublicOnly><RegisterPage /></PublicOnly>} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/reset-password" element={<ResetPasswordPage />} />
        <Route path="/verify-email" element={<VerifyEmailPage />} />
        <Route path="/confirm-email-change" element={<ConfirmEmailChangePage />} />
        {/* Readable signed out too (docs/decisions.md "Settled for features still to come"): the law wants the first two before sign-up. */}
        <Route path="/termos" element={<LegalDocumentPage kind="terms" />} />
        <Route path="/privacidade" element={<LegalDocumentPage kind="privacy" />} />
        <Route path="/ajuda" element={<HelpPage />} />
        <Route path="/ajuda/:slug" element={<HelpArticlePage />} />
        <Route element={<RequireAuth><LegalAcceptanceGate><Shell /></LegalAcceptanceGate></RequireAuth>}>
          <Route path="/" element={<HomeRedirect />} />
          <Route path="/dashboard" element={<RequirePlan adminTo="/admin"><DashboardPage /></RequirePlan>} />
          <Route path="/converter" element={<RequirePlan><ConverterPage /></RequirePlan>} />
          {/* Own conversion (or any, for an admin): no plan needed to see what one already converted. */}
          <Route path="/conversions/:id" element={<ConversionPage />} />
          <Route path="/history" element={<RequirePlan fallback="/dashboard"><HistoryPage /></RequirePlan>} />
          <Route path="/plans" element={<PlansGuard><PlansPage /></PlansGuard>} />
          <Route path="/payment-status" element={<PaymentStatusPage />} />
          <Route path="/sandbox/checkout/:id" element={<SandboxCheckoutPage />} />
          <Route path="/purchases" element={<PurchasesPage />} />
          <Route path="/account/profile" element={<ProfilePage />} />
          <Route path="/account/keystore" element={<KeystorePage />} />
          <Route path="/account/google-play" element={<PlayCredentialsPage />} />
          <Route path="/account/api-tokens" element={<ApiTokensPage />} />
          <Route path="/account/security" element={<SecurityPage />} />
          <Route path="/account/activity" element={<AccountActivityPage />} />
          <Route path="/account/data" element={<MyDataPage />} />
          <Route path="/account/billing" element={<BillingPage />} />
          <Route path="/admin/*" element={<RequireAdmin><AdminRoutes /></RequireAdmin>} />
          <Route path="*" element={<HomeRedirect />} />
        </Route>
      </Routes>
    );
  return (
    <>
      <Suspense fallback={<Loading />}>{content}</Suspense>
      <Toasts />
      <ReauthModal />
    </>
  );
}
