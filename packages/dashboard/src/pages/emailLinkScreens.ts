/** The screens e-mailed links open (signed in or not), loaded as one chunk by App.tsx. */
export { default as ForgotPasswordPage } from './ForgotPasswordPage';
export { default as ResetPasswordPage } from './ResetPasswordPage';
export { default as VerifyEmailPage } from './VerifyEmailPage';
