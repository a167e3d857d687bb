/**
 * /account/profile — Conta › Perfil: the account's name, its e-mail (a change is confirmed by a
 * link sent to the new address; until then nothing changes) and which optional e-mails it wants.
 * Security e-mails have no switch: they always go.
 */
import { useState } from 'react';
import { Form as FormikForm, Formik, type FormikHelpers } from 'formik';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { EMAIL_PREFERENCE_LABELS, emailChangeSchema, profileSchema, type ApiUser, type EmailPreference } from '@aabify/shared';
import { emailApi } from '../api/email';
import { FormField } from '../components/FormField';
import { PageHeader } from '../components/PageHeader';
import { SubmitButton } from '../components/SubmitButton';
import { showServerErrors } from '../lib/formErrors';
import { useSession } from '../stores/session';
import { toast } from '../stores/toasts';

export const PROFILE_TEXTS = {
  title: 'Perfil',
  subtitle: 'Seu nome, seu e-mail e os avisos que você quer receber.',
  nameCard: 'Nome',
  nameLabel: 'Nome',
  nameHelp: 'Como o aabify chama você nas telas e nos e-mails. Deixe em branco para não usar um nome.',
  saveName: 'Salvar nome',
  emailCard: 'E-mail',
  currentEmail: 'E-mail atual',
  newEmailLabel: 'Novo e-mail',
  emailHelp: 'Enviamos um link para o novo endereço; o e-mail da conta só muda quando você abrir esse link. O endereço atual é avisado.',
  requestChange: 'Enviar link de confirmação',
  notificationsCard: 'Avisos por e-mail',
  securityNote: 'E-mails de segurança (senha alterada, acesso novo, verificação em duas etapas, links que você pediu) e recibos são sempre enviados.',
  saveFailed: 'Não foi possível salvar',
} as const;

const PREFERENCES = Object.keys(EMAIL_PREFERENCE_LABELS) as EmailPreference[];

function NameCard({ user }: { user: ApiUser }) {
  const submit = async (values: { name: string }, helpers: FormikHelpers<{ name: string }>) => {
    try {
      const res = await emailApi.saveProfile({ name: values.name });
      useSession.getState().setUser(res.user);
      toast.success(res.message);
    } catch (e) {
      showServerErrors(e, helpers, ['name'], PROFILE_TEXTS.saveFailed);
    }
  };
  return (
    <Card className="mb-3">
      <Card.Body>
        <h2 className="h5">{PROFILE_TEXTS.nameCard}</h2>
        <Formik initialValues={{ name: user.name ?? '' }} validationSchema={profileSchema} onSubmit={submit}>
          {({ isSubmitting }) => (
            <FormikForm noValidate data-testid="profile-name-form">
              <FormField name="name" label={PROFILE_TEXTS.nameLabel} autoComplete="name" helper={PROFILE_TEXTS.nameHelp} />
              <SubmitButton busy={isSubmitting}>{PROFILE_TEXTS.saveName}</SubmitButton>
            </FormikForm>
          )}
        </Formik>
      </Card.Body>
    </Card>
  );
}

function EmailCard({ user }: { user: ApiUser }) {
  const [sent, setSent] = useState<string | null>(null);
  const submit = async (values: { newEmail: string }, helpers: FormikHelpers<{ newEmail: string }>) => {
    try {
      const res = await emailApi.requestEmailChange(values.newEmail);
      setSent(res.message);
      helpers.resetForm();
    } catch (e) {
      showServerErrors(e, helpers, ['newEmail'], PROFILE_TEXTS.saveFailed);
    }
  };
  return (
    <Card className="mb-3">
      <Card.Body>
        <h2 className="h5">{PROFILE_TEXTS.emailCard}</h2>
        <p className="mb-3">
          {PROFILE_TEXTS.currentEmail}: <strong className="text-break" data-testid="profile-email">{user.email}</strong>
        </p>
        {sent && (
          <Alert variant="info" data-testid="email-change-sent">
            {sent}
          </Alert>
        )}
        <Formik initialValues={{ newEmail: '' }} validationSchema={emailChangeSchema} validateOnBlur={false} onSubmit={submit}>
          {({ isSubmitting }) => (
            <FormikForm noValidate data-testid="email-change-form">
              <FormField name="newEmail" label={PROFILE_TEXTS.newEmailLabel} type="email" autoComplete="email" helper={PROFILE_TEXTS.emailHelp} />
              <SubmitButton busy={isSubmitting}>{PROFILE_TEXTS.requestChange}</SubmitButton>
            </FormikForm>
          )}
        </Formik>
      </Card.Body>
    </Card>
  );
}

function NotificationsCard({ user }: { user: ApiUser }) {
  const [busy, setBusy] = useState<EmailPreference | null>(null);
  const toggle = async (preference: EmailPreference, on: boolean) => {
    setBusy(preference);
    try {
      const res = await emailApi.setPreferences({ [preference]: on });
      useSession.getState().setUser(res.user);
      toast.success(res.message);
    } catch {
      // The client's toast said why.
    } finally {
      setBusy(null);
    }
  };
  return (
    <Card className="mb-3">
      <Card.Body>
        <h2 className="h5">{PROFILE_TEXTS.notificationsCard}</h2>
        {PREFERENCES.map((p) => (
          <Form.Check
            key={p}
            type="switch"
            id={`preference-${p}`}
            className="mb-2"
            data-testid={`preference-${p}`}
            checked={user[p]}
            disabled={busy !== null}
            onChange={(e) => void toggle(p, e.target.checked)}
            label={
              <>
                {EMAIL_PREFERENCE_LABELS[p].label}
                <span className="d-block small text-body-secondary">{EMAIL_PREFERENCE_LABELS[p].help}</span>
              </>
            }
          />
        ))}
        <p className="small text-body-secondary mb-0 mt-3">{PROFILE_TEXTS.securityNote}</p>
      </Card.Body>
    </Card>
  );
}

export default function ProfilePage() {
  const user = useSession((s) => s.user);
  if (!user) return null;
  return (
    <>
      <PageHeader title={PROFILE_TEXTS.title} subtitle={PROFILE_TEXTS.subtitle} />
      <NameCard user={user} />
      <EmailCard user={user} />
      <NotificationsCard user={user} />
    </>
  );
}
