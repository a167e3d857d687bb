/**
 * The screens of visitors without a session (sign-in, registration, first-run setup) and those
 * e-mailed links open (signed in or not): one chunk, loaded by App.tsx, with the forms' code
 * (formik, the shared yup schemas) that the signed-in landing screens do not need.
 */
export { LoginPage } from './LoginPage';
export { RegisterPage } from './RegisterPage';
export { SetupPage } from './SetupPage';
export { default as ForgotPasswordPage } from './ForgotPasswordPage';
export { default as ResetPasswordPage } from './ResetPasswordPage';
export { default as VerifyEmailPage } from './VerifyEmailPage';
export { default as ConfirmEmailChangePage } from './ConfirmEmailChangePage';
export { LegalDocumentPage } from './public/LegalDocumentPage';
export { HelpArticlePage, HelpPage } from './public/HelpPage';
