/** Create and edit a plan (docs/payments.md "Plans"): the shared planFormSchema, its messages, and what is sent. */
import { useEffect, useState, type ReactNode } from 'react';
import { Form as FormikForm, Formik, useField, useFormikContext, type FormikHelpers } from 'formik';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Row from 'react-bootstrap/Row';
import {
  CURRENCIES,
  PAYMENT_PROVIDER_LABELS,
  PLAN_MESSAGES,
  formatMoney,
  fromCents,
  isDrasticChange,
  isCurrency,
  planCurrencyUnsupportedMessage,
  planFormSchema,
  type ApiPlan,
  type Currency,
  type CurrencyPaymentRoute,
} from '@aabify/shared';
import { MoneyInput } from '../../components/MoneyInput';
import { ConfirmModal } from '../common';
import { adminApi, type PlanBody } from '../../api/admin';
import { adminPaymentsApi } from '../../api/payments';
import { toast } from '../../stores/toasts';
import { failureText, serverFields } from '../common';
import { FocusFirstError } from '../../components/FormField';
import { SubmitButton } from '../../components/SubmitButton';

/** Number inputs hold text until typed in; formik then keeps a number ('' when cleared). */
type NumberText = string | number;

export interface PlanFormValues {
  name: string;
  description: string;
  type: 'credit' | 'subscription';
  /** Integer cents from the BRL field; null while empty or not an amount. */
  priceCents: number | null;
  currency: string;
  credits: NumberText;
  duration: NumberText;
  features: string;
  isPopular: boolean;
  displayOrder: NumberText;
  isActive: boolean;
}

const text = (v: NumberText | undefined): string => (v === undefined || v === null ? '' : String(v)).trim();

export function planFormValues(plan: ApiPlan | null): PlanFormValues {
  if (!plan) {
    // No display order: the server places a new plan last.
    return { name: '', description: '', type: 'credit', priceCents: null, currency: 'BRL', credits: '0', duration: '1', features: '', isPopular: false, displayOrder: '', isActive: true };
  }
  return {
    name: plan.name,
    description: plan.description,
    type: plan.type,
    priceCents: plan.priceCents,
    currency: plan.currency,
    credits: String(plan.credits ?? 0),
    duration: String(plan.subscriptionDetails?.duration ?? 1),
    features: plan.features.join('\n'),
    isPopular: plan.isPopular,
    displayOrder: String(Math.max(1, plan.displayOrder)),
    isActive: plan.isActive,
  };
}

/** The body sent: blank feature lines dropped, credits only for credit plans, duration only when above 0. */
export function planBody(v: PlanFormValues): PlanBody {
  const body: PlanBody = {
    name: v.name.trim(),
    description: v.description.trim(),
    type: v.type,
    price: v.priceCents === null ? Number.NaN : fromCents(v.priceCents),
    currency: v.currency || 'BRL',
    features: v.features.split('\n').map((l) => l.trim()).filter(Boolean),
    isPopular: v.isPopular,
    isActive: v.isActive,
  };
  if (text(v.displayOrder) !== '') body.displayOrder = Number(text(v.displayOrder));
  if (v.type === 'credit') body.credits = Number(text(v.credits));
  else if (Number(text(v.duration)) > 0) body.subscriptionDetails = { duration: Number(text(v.duration)) };
  return body;
}

/** The shared schema checks the body as it will be sent; errors map back to the form's fields. */
async function validatePlan(v: PlanFormValues): Promise<Record<string, string>> {
  const body = { ...planBody(v), price: v.priceCents === null ? undefined : fromCents(v.priceCents), credits: v.type === 'credit' ? (text(v.credits) === '' ? undefined : Number(text(v.credits))) : undefined };
  if (v.type === 'subscription') body.subscriptionDetails = { duration: text(v.duration) === '' ? Number.NaN : Number(text(v.duration)) };
  try {
    await planFormSchema.validate(body, { abortEarly: false });
    return {};
  } catch (e) {
    const errors: Record<string, string> = {};
    const inner = (e as { inner?: Array<{ path?: string; message: string }> }).inner ?? [];
    for (const err of inner) {
      const key = err.path === 'subscriptionDetails.duration' || err.path === 'subscriptionDetails' ? 'duration' : err.path === 'price' ? 'priceCents' : (err.path ?? 'name');
      errors[key] ??= err.message;
    }
    return errors;
  }
}

function Field({ name, label, type = 'text', as, children, ...rest }: { name: keyof PlanFormValues; label: string; type?: string; as?: 'textarea' | 'select'; children?: ReactNode; min?: number; step?: string; rows?: number; helper?: string }) {
  const [field, meta] = useField<string>(name);
  const invalid = Boolean(meta.touched && meta.error);
  const id = `plan-${name}`;
  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      {as === 'select' ? (
        <Form.Select {...field} isInvalid={invalid}>{children}</Form.Select>
      ) : (
        <Form.Control {...field} as={as} type={as ? undefined : type} min={rest.min} step={rest.step} rows={rest.rows} isInvalid={invalid} />
      )}
      {rest.helper && !invalid && <Form.Text muted>{rest.helper}</Form.Text>}
      <Form.Control.Feedback type="invalid" role="alert">{meta.error}</Form.Control.Feedback>
    </Form.Group>
  );
}

type CurrencyRoutes = Record<Currency, CurrencyPaymentRoute | null>;

/** What the currency field says before saving: who charges it and how, or that nobody can (an active plan is then refused). */
export function currencyHint(routes: CurrencyRoutes | null, currency: string): { text: string; warning: boolean } | null {
  if (!routes || !isCurrency(currency)) return null;
  const route = routes[currency];
  if (!route) return { text: planCurrencyUnsupportedMessage(currency), warning: true };
  const ways = [route.pix && 'PIX', route.card && (route.maxInstallments > 1 ? `cartão em até ${route.maxInstallments}x` : 'cartão'), route.renewal && 'renovação automática'].filter(Boolean);
  return { text: `Cobrado por ${PAYMENT_PROVIDER_LABELS[route.provider]}${ways.length ? ` (${ways.join(', ')})` : ''}.`, warning: false };
}

function CurrencyField({ routes }: { routes: CurrencyRoutes | null }) {
  const [field, meta] = useField<string>('currency');
  const invalid = Boolean(meta.touched && meta.error);
  const hint = currencyHint(routes, field.value);
  return (
    <Form.Group className="mb-3" controlId="plan-currency">
      <Form.Label>Moeda</Form.Label>
      <Form.Select {...field} isInvalid={invalid} aria-describedby={hint ? 'plan-currency-hint' : undefined}>
        {CURRENCIES.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </Form.Select>
      {hint && !invalid && (
        <Form.Text id="plan-currency-hint" className={hint.warning ? 'text-warning-emphasis' : 'text-body-secondary'} data-testid="plan-currency-hint" data-warning={hint.warning}>
          {hint.text}
        </Form.Text>
      )}
      <Form.Control.Feedback type="invalid" role="alert">{meta.error}</Form.Control.Feedback>
    </Form.Group>
  );
}

function Switch({ name, label }: { name: 'isPopular' | 'isActive'; label: string }) {
  const [field, , helpers] = useField<boolean>(name);
  return <Form.Check type="switch" id={`plan-${name}`} label={label} name={name} checked={Boolean(field.value)} onChange={(e) => void helpers.setValue(e.target.checked)} />;
}

/** Changing the type clears the other type's details (duration 1, credits 0). */
function TypeSelect() {
  const { values, setFieldValue } = useFormikContext<PlanFormValues>();
  return (
    <Form.Group className="mb-3" controlId="plan-type">
      <Form.Label>Tipo</Form.Label>
      <Form.Select
        value={values.type}
        onChange={(e) => {
          const type = e.target.value as PlanFormValues['type'];
          void setFieldValue('type', type);
          if (type === 'credit') void setFieldValue('duration', '1');
          else void setFieldValue('credits', '0');
        }}
      >
        <option value="credit">Créditos</option>
        <option value="subscription">Assinatura</option>
      </Form.Select>
    </Form.Group>
  );
}

/** What customers will pay, said in full: 'Os clientes pagarão R$ 19,90 (R$ 1,99 por conversão)'. */
export function pricePreview(v: Pick<PlanFormValues, 'priceCents' | 'type' | 'credits' | 'duration' | 'currency'>): string {
  if (v.priceCents === null) return '';
  const currency = isCurrency(v.currency) ? v.currency : 'BRL';
  const total = formatMoney(v.priceCents, currency);
  const credits = Number(text(v.credits));
  const months = Number(text(v.duration));
  if (v.type === 'credit' && credits > 0) return `Os clientes pagarão ${total} (${formatMoney(Math.round(v.priceCents / credits), currency)} por conversão)`;
  if (v.type === 'subscription' && months > 1) return `Os clientes pagarão ${total} (${formatMoney(Math.round(v.priceCents / months), currency)} por mês)`;
  return `Os clientes pagarão ${total}`;
}

function PriceField() {
  const { values, setFieldValue, setFieldTouched, errors, touched } = useFormikContext<PlanFormValues>();
  return (
    <MoneyInput
      label="Preço"
      name="priceCents"
      id="plan-price"
      value={values.priceCents}
      onChange={(cents) => void setFieldValue('priceCents', cents)}
      onBlur={() => void setFieldTouched('priceCents', true, false)}
      error={touched.priceCents ? errors.priceCents : undefined}
      preview={() => pricePreview(values)}
      testId="plan-price"
    />
  );
}

export function PlanFormModal({ show, plan, onHide, onSaved }: { show: boolean; plan: ApiPlan | null; onHide(): void; onSaved(): void }) {
  const [confirming, setConfirming] = useState<{ values: PlanFormValues; helpers: FormikHelpers<PlanFormValues> } | null>(null);
  // Which provider charges each currency, read when the form opens: the currency field says it before saving.
  const [routes, setRoutes] = useState<CurrencyRoutes | null>(null);
  useEffect(() => {
    if (!show) return;
    let live = true;
    adminPaymentsApi.status().then(
      (status) => live && setRoutes(status.routes),
      () => live && setRoutes(null),
    );
    return () => {
      live = false;
    };
  }, [show]);
  const submit = async (values: PlanFormValues, helpers: FormikHelpers<PlanFormValues>, confirmed = false) => {
    // A price more than 10× away from the plan's current one is most likely a typo: ask first.
    if (!confirmed && plan && values.priceCents !== null && isDrasticChange(plan.priceCents, values.priceCents)) {
      setConfirming({ values, helpers });
      return;
    }
    try {
      const r = plan ? await adminApi.updatePlan(plan.id, planBody(values)) : await adminApi.createPlan(planBody(values));
      toast.success(r.message ?? (plan ? PLAN_MESSAGES.updated : PLAN_MESSAGES.created), { admin: true });
      onSaved();
      onHide();
    } catch (e) {
      const fields = serverFields(e);
      if (Object.keys(fields).length) helpers.setErrors(fields);
      toast.error(failureText(e, plan ? 'Erro ao atualizar plano' : 'Erro ao criar plano'));
      helpers.setSubmitting(false);
    }
  };
  return (
    <Modal show={show} onHide={onHide} size="lg" centered>
      <Formik<PlanFormValues> initialValues={planFormValues(plan)} validate={validatePlan} onSubmit={(v, h) => submit(v, h)} enableReinitialize>
        {({ values, isSubmitting, errors, submitCount }) => (
          <FormikForm noValidate data-testid="plan-form">
            <FocusFirstError />
            <Modal.Header closeButton closeLabel="Fechar">
              <Modal.Title as="h2" className="h5">{plan ? 'Editar Plano' : 'Novo Plano'}</Modal.Title>
            </Modal.Header>
            <Modal.Body>
              {submitCount > 0 && errors.name === PLAN_MESSAGES.nameRequired && (
                <div className="alert alert-danger py-2" role="alert">
                  <strong>{PLAN_MESSAGES.requiredTitle}:</strong> {PLAN_MESSAGES.nameRequired}
                </div>
              )}
              <Row>
                <Col md={8}><Field name="name" label="Nome" /></Col>
                <Col md={4}><TypeSelect /></Col>
              </Row>
              <Field name="description" label="Descrição" as="textarea" rows={2} />
              <Row>
                <Col md={4}><PriceField /></Col>
                <Col md={4}>
                  <CurrencyField routes={routes} />
                </Col>
                <Col md={4}>
                  {values.type === 'credit' ? (
                    <Field name="credits" label="Créditos" type="number" min={1} step="1" />
                  ) : (
                    <Field name="duration" label="Duração (meses)" type="number" min={1} step="1" helper="Conversões ilimitadas durante o período" />
                  )}
                </Col>
              </Row>
              <Field name="features" label="Recursos (um por linha)" as="textarea" rows={4} />
              <Row className="align-items-center">
                <Col md={4}><Field name="displayOrder" label="Ordem de exibição" type="number" min={1} step="1" helper={plan ? undefined : 'Vazio: o plano entra por último'} /></Col>
                <Col md={4}><Switch name="isActive" label="Ativo" /></Col>
                <Col md={4}><Switch name="isPopular" label="Popular" /></Col>
              </Row>
            </Modal.Body>
            <Modal.Footer>
              <Button variant="secondary" onClick={onHide}>Cancelar</Button>
              <SubmitButton busy={isSubmitting} data-testid="plan-form-submit">
                {plan ? 'Salvar' : 'Criar Plano'}
              </SubmitButton>
            </Modal.Footer>
          </FormikForm>
        )}
      </Formik>
      <ConfirmModal
        show={confirming !== null}
        title="Confirmar mudança de preço"
        confirmLabel="Salvar novo preço"
        variant="warning"
        onHide={() => {
          confirming?.helpers.setSubmitting(false);
          setConfirming(null);
        }}
        onConfirm={() => {
          const c = confirming;
          setConfirming(null);
          if (c) void submit(c.values, c.helpers, true);
        }}
      >
        {confirming && plan ? (
          <span data-testid="price-change-warning">
            O novo preço ({formatMoney(confirming.values.priceCents ?? 0, plan.currency)}) é mais de 10 vezes diferente do atual ({formatMoney(plan.priceCents, plan.currency)}). Confirma?
          </span>
        ) : null}
      </ConfirmModal>
    </Modal>
  );
}
