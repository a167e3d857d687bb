/** The modals of the admin users screen: create/edit, credits, password. */
import { useEffect, useState, type ReactNode } from 'react';
import { Form as FormikForm, Formik, useField, type FormikHelpers } from 'formik';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { ACCOUNT_MESSAGES, ADMIN_MESSAGES, adminChangePasswordFormSchema, type ApiPlan, type ApiUser } from '@aabify/shared';
import { adminApi } from '../api/admin';
import { FormField } from '../components/FormField';
import { toast } from '../stores/toasts';
import { failureText, serverFields } from './common';
import { emptyUserForm, hasChanges, userChanges, userCreateSchema, userEditSchema, userFormOf, type UserFormValues } from './userForm';
import { SubmitButton } from '../components/SubmitButton';

function useSubscriptionPlans(enabled: boolean): ApiPlan[] {
  const [plans, setPlans] = useState<ApiPlan[]>([]);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    adminApi
      .subscriptionPlans()
      .then((r) => live && setPlans(r.plans))
      .catch(() => live && setPlans([]));
    return () => {
      live = false;
    };
  }, [enabled]);
  return plans;
}

function SelectField({ name, label, children }: { name: string; label: string; children: ReactNode }) {
  const [field, meta] = useField<string>(name);
  return (
    <Form.Group className="mb-3" controlId={`field-${name}`}>
      <Form.Label>{label}</Form.Label>
      <Form.Select {...field} isInvalid={Boolean(meta.touched && meta.error)}>
        {children}
      </Form.Select>
      <Form.Control.Feedback type="invalid" role="alert">{meta.error}</Form.Control.Feedback>
    </Form.Group>
  );
}

function InputField({ name, label, type, min, step, helper }: { name: string; label: string; type: 'number' | 'date'; min?: number; step?: number; helper?: string }) {
  const [field, meta] = useField<string | number>(name);
  return (
    <Form.Group className="mb-3" controlId={`field-${name}`}>
      <Form.Label>{label}</Form.Label>
      <Form.Control {...field} value={field.value ?? ''} type={type} min={min} step={step} isInvalid={Boolean(meta.touched && meta.error)} />
      {helper && <Form.Text muted>{helper}</Form.Text>}
      <Form.Control.Feedback type="invalid" role="alert">{meta.error}</Form.Control.Feedback>
    </Form.Group>
  );
}

/** Create (user = null) or edit a user; the edit sends only what changed. */
export function UserFormModal({ show, user, onHide, onSaved }: { show: boolean; user: ApiUser | null; onHide(): void; onSaved(): void }) {
  const editing = user !== null;
  const plans = useSubscriptionPlans(show);
  const submit = async (values: UserFormValues, helpers: FormikHelpers<UserFormValues>) => {
    try {
      if (!user) {
        const body =
          values.userType === 'credit'
            ? { email: values.email.trim(), password: values.password, userType: values.userType, credits: String(values.credits).trim() === '' ? undefined : Number(values.credits) }
            : { email: values.email.trim(), password: values.password, userType: values.userType, planId: values.planId || undefined };
        const r = await adminApi.createUser(body);
        toast.success(r.message, { admin: true });
      } else {
        const changes = userChanges(user, values);
        if (!hasChanges(changes)) {
          toast.info(ADMIN_MESSAGES.noChanges);
          helpers.setSubmitting(false);
          return;
        }
        const r = await adminApi.updateUser(user.id, { ...changes });
        toast.success(r.message, { admin: true });
      }
      onSaved();
      onHide();
    } catch (e) {
      const fields = serverFields(e);
      if (Object.keys(fields).length) helpers.setErrors(fields);
      toast.error(failureText(e, editing ? ADMIN_MESSAGES.updateFailed : ADMIN_MESSAGES.createFailed));
      helpers.setSubmitting(false);
    }
  };
  return (
    <Modal show={show} onHide={onHide} centered>
      <Formik<UserFormValues> initialValues={user ? userFormOf(user) : emptyUserForm()} validationSchema={editing ? userEditSchema : userCreateSchema} onSubmit={submit} enableReinitialize>
        {({ values, isSubmitting }) => (
          <FormikForm noValidate data-testid="user-form">
            <Modal.Header closeButton closeLabel="Fechar">
              <Modal.Title as="h2" className="h5">{editing ? 'Editar Usuário' : 'Novo Usuário'}</Modal.Title>
            </Modal.Header>
            <Modal.Body>
              <FormField name="email" label="E-mail" type="email" autoComplete="off" autoFocus />
              <FormField name="password" label={editing ? 'Nova senha (deixe em branco para manter)' : 'Senha'} type="password" autoComplete="new-password" helper={ACCOUNT_MESSAGES.passwordHelper} />
              <SelectField name="userType" label="Tipo de usuário">
                <option value="credit">Créditos</option>
                <option value="subscription">Assinatura</option>
              </SelectField>
              {values.userType === 'credit' ? (
                <InputField name="credits" label={editing ? 'Créditos' : 'Créditos iniciais'} type="number" min={0} step={1} />
              ) : (
                <>
                  <SelectField name="planId" label="Plano de assinatura">
                    <option value="">{editing ? 'Manter o plano atual' : 'Sem plano'}</option>
                    {plans.map((p) => (
                      <option key={p.id} value={p.id}>
                        {p.name} ({p.subscriptionDetails?.duration ?? 1} {p.subscriptionDetails?.duration === 1 ? 'mês' : 'meses'})
                      </option>
                    ))}
                  </SelectField>
                  {editing && <InputField name="expiresAt" label="Expira em" type="date" />}
                </>
              )}
            </Modal.Body>
            <Modal.Footer>
              <Button variant="secondary" onClick={onHide}>Cancelar</Button>
              <SubmitButton busy={isSubmitting} data-testid="user-form-submit">
                {editing ? 'Salvar' : 'Criar Usuário'}
              </SubmitButton>
            </Modal.Footer>
          </FormikForm>
        )}
      </Formik>
    </Modal>
  );
}

/** Credits: set the balance, or add / subtract an amount. */
export function CreditsModal({ user, onHide, onSaved }: { user: ApiUser | null; onHide(): void; onSaved(): void }) {
  const [operation, setOperation] = useState<'set' | 'add' | 'subtract'>('set');
  const [amount, setAmount] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Each opening starts from the user's balance.
  const reset = () => {
    setOperation('set');
    setAmount(user ? String(user.credits.available) : '');
    setError(null);
  };
  const save = async () => {
    if (!user) return;
    const n = Number(amount);
    if (amount.trim() === '' || !Number.isInteger(n) || n < 0) {
      setError(ADMIN_MESSAGES.creditsMin);
      return;
    }
    setBusy(true);
    try {
      const r = await adminApi.setCredits(user.id, n, operation);
      toast.success(r.message, { admin: true });
      onSaved();
      onHide();
    } catch (e) {
      setError(failureText(e, ADMIN_MESSAGES.updateFailed));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal show={user !== null} onShow={reset} onHide={onHide} centered>
      <Modal.Header closeButton closeLabel="Fechar">
        <Modal.Title as="h2" className="h5">Gerenciar Créditos</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="small text-body-secondary mb-2">
          {user?.email} — saldo atual: <strong data-testid="credits-current">{user?.credits.available ?? 0}</strong>
        </p>
        <Form.Group className="mb-3" controlId="credits-operation">
          <Form.Label>Operação</Form.Label>
          <Form.Select value={operation} onChange={(e) => setOperation(e.target.value as 'set' | 'add' | 'subtract')}>
            <option value="set">Definir saldo</option>
            <option value="add">Adicionar</option>
            <option value="subtract">Remover</option>
          </Form.Select>
        </Form.Group>
        <Form.Group controlId="credits-amount">
          <Form.Label>Créditos</Form.Label>
          <Form.Control type="number" min={0} step={1} value={amount} onChange={(e) => setAmount(e.target.value)} isInvalid={Boolean(error)} />
          <Form.Control.Feedback type="invalid" role="alert">{error}</Form.Control.Feedback>
        </Form.Group>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onHide}>Cancelar</Button>
        <Button onClick={() => void save()} disabled={busy} data-testid="credits-save">
          {busy && <Spinner size="sm" className="me-2" />}Salvar
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

interface PasswordValues {
  newPassword: string;
  confirmPassword: string;
}

/** An admin sets another user's password: no current password. */
export function AdminPasswordModal({ user, onHide }: { user: ApiUser | null; onHide(): void }) {
  const submit = async (values: PasswordValues, helpers: FormikHelpers<PasswordValues>) => {
    if (!user) return;
    try {
      const r = await adminApi.changePassword(user.id, values.newPassword);
      toast.success(r.message, { admin: true });
      helpers.resetForm();
      onHide();
    } catch (e) {
      const fields = serverFields(e);
      if (fields.newPassword) helpers.setErrors({ newPassword: fields.newPassword });
      toast.error(failureText(e, ADMIN_MESSAGES.passwordFailed));
      helpers.setSubmitting(false);
    }
  };
  return (
    <Modal show={user !== null} onHide={onHide} centered>
      <Formik<PasswordValues> initialValues={{ newPassword: '', confirmPassword: '' }} validationSchema={adminChangePasswordFormSchema} onSubmit={submit}>
        {({ isSubmitting }) => (
          <FormikForm noValidate>
            <Modal.Header closeButton closeLabel="Fechar">
              <Modal.Title as="h2" className="h5">Alterar Senha</Modal.Title>
            </Modal.Header>
            <Modal.Body>
              <p className="small text-body-secondary">{user?.email}</p>
              <FormField name="newPassword" label="Nova senha" type="password" autoComplete="new-password" helper={ACCOUNT_MESSAGES.passwordHelper} autoFocus />
              <FormField name="confirmPassword" label="Confirmar nova senha" type="password" autoComplete="new-password" />
            </Modal.Body>
            <Modal.Footer>
              <Button variant="secondary" onClick={onHide}>Cancelar</Button>
              <Button type="submit" disabled={isSubmitting}>Alterar Senha</Button>
            </Modal.Footer>
          </FormikForm>
        )}
      </Formik>
    </Modal>
  );
}
