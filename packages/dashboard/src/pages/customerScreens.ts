/**
 * The signed-in customer's screens but the converter, loaded as one chunk: they share most of
 * their code, and as separate lazy screens they cut the bundle into dozens of small shared
 * chunks, each a round trip on a slow network (bench/dashboard-perf.ts: /converter went from
 * 43 scripts to 15). App.tsx loads them lazily from here; the converter stays on its own so
 * its first load carries only what it uses.
 */
export { default as DashboardPage } from './DashboardPage';
export { default as ConversionPage } from './conversion/ConversionPage';
export { default as HistoryPage } from './HistoryPage';
export { default as PlansPage } from './plans/PlansPage';
export { default as PaymentStatusPage } from './PaymentStatusPage';
export { default as SandboxCheckoutPage } from './SandboxCheckoutPage';
export { default as KeystorePage } from './KeystorePage';
export { default as PurchasesPage } from './PurchasesPage';
export { default as PlayCredentialsPage } from './PlayCredentialsPage';
export { default as ApiTokensPage } from './ApiTokensPage';
export { default as SecurityPage } from './security/SecurityPage';
export { default as AccountActivityPage } from './AccountActivityPage';
export { default as MyDataPage } from './MyDataPage';
export { default as BillingPage } from './BillingPage';
export { default as ProfilePage } from './ProfilePage';
