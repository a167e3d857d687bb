/** The admin user forms' values and what an edit sends: only the fields that changed. */
import { mixed, object, string } from 'yup';
import { ACCOUNT_MESSAGES, ADMIN_LIMITS, ADMIN_MESSAGES, type ApiUser, type UserType } from '@aabify/shared';

export interface UserFormValues {
  email: string;
  password: string;
  userType: UserType;
  /** Text until typed in; formik then keeps a number ('' when cleared). */
  credits: string | number;
  planId: string;
  /** 'YYYY-MM-DD' (the date input's value); '' = none. */
  expiresAt: string;
}

/** 'YYYY-MM-DD' of a date in the browser's time zone. */
export function dateInputValue(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The end of that day in the browser's time zone, as ISO. */
export function dateInputToIso(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const d = new Date(`${value}T23:59:59`);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

export function emptyUserForm(): UserFormValues {
  return { email: '', password: '', userType: 'credit', credits: String(ADMIN_LIMITS.defaultInitialCredits), planId: '', expiresAt: '' };
}

export function userFormOf(user: ApiUser): UserFormValues {
  return {
    email: user.email,
    password: '',
    userType: user.userType ?? 'credit',
    credits: String(user.credits.available),
    planId: user.subscription.plan ?? '',
    expiresAt: dateInputValue(user.subscription.expiresAt),
  };
}

export interface UserChanges {
  email?: string;
  password?: string;
  userType?: UserType;
  planId?: string;
  planData?: { credits?: number; expiresAt?: string };
}

/** Only what differs from the user; an empty object means 'Nenhuma alteração detectada'. */
export function userChanges(user: ApiUser, v: UserFormValues): UserChanges {
  const out: UserChanges = {};
  const before = userFormOf(user);
  if (v.email.trim().toLowerCase() !== user.email) out.email = v.email.trim();
  if (v.password !== '') out.password = v.password;
  if (v.userType !== (user.userType ?? '')) out.userType = v.userType;
  const planData: NonNullable<UserChanges['planData']> = {};
  const credits = String(v.credits ?? '').trim();
  if (v.userType === 'credit' && credits !== '' && Number(credits) !== user.credits.available) planData.credits = Number(credits);
  if (v.userType === 'subscription') {
    if (v.planId && v.planId !== before.planId) out.planId = v.planId;
    if (v.expiresAt && v.expiresAt !== before.expiresAt) {
      const iso = dateInputToIso(v.expiresAt);
      if (iso) planData.expiresAt = iso;
    }
  }
  if (Object.keys(planData).length) out.planData = planData;
  return out;
}

export function hasChanges(c: UserChanges): boolean {
  return Object.keys(c).length > 0;
}

const creditsRule = mixed<string | number>().test('credits', ADMIN_MESSAGES.creditsMin, (v) => v === undefined || v === '' || (Number.isInteger(Number(v)) && Number(v) >= 0));

/** 'Novo Usuário': each field says what it lacks (never one sentence about both under each). */
export const userCreateSchema = object({
  email: string().trim().required(ACCOUNT_MESSAGES.emailRequired).email(ACCOUNT_MESSAGES.emailInvalid),
  password: string().required(ACCOUNT_MESSAGES.passwordRequired).min(6, ACCOUNT_MESSAGES.passwordMin),
  credits: creditsRule,
});

/** 'Editar Usuário': a blank password keeps the current one. */
export const userEditSchema = object({
  email: string().trim().required(ACCOUNT_MESSAGES.emailRequired).email(ACCOUNT_MESSAGES.emailInvalid),
  password: string().test('pw', ACCOUNT_MESSAGES.passwordMin, (v) => !v || v.length >= 6),
  credits: creditsRule,
});
