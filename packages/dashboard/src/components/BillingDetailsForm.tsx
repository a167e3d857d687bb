/**
 * The billing details form (CPF or CNPJ, nome or razão social, e-mail for invoices, the address an
 * NFS-e needs): Conta › Dados de faturamento and the purchase's modal use this one form. The
 * shared yup schema checks it here and on the server; each field's pt-BR message sits beside it.
 */
import { Form as FormikForm, Formik, useField, type FormikHelpers } from 'formik';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Col from 'react-bootstrap/Col';
import { BILLING_MESSAGES, BRAZILIAN_STATES, billingDetailsSchema, type ApiBillingDetails, type BillingDetailsRequest } from '@aabify/shared';
import { billingApi } from '../api/fiscal';
import { showServerErrors } from '../lib/formErrors';
import { FormField } from './FormField';
import { SubmitButton } from './SubmitButton';

interface Values {
  document: string;
  name: string;
  email: string;
  cep: string;
  street: string;
  number: string;
  complement: string;
  district: string;
  city: string;
  cityCode: string;
  state: string;
}

const FIELDS: readonly (keyof Values)[] = ['document', 'name', 'email', 'cep', 'street', 'number', 'complement', 'district', 'city', 'cityCode', 'state'];

function initialValues(saved: ApiBillingDetails | null, accountEmail: string): Values {
  if (!saved) return { document: '', name: '', email: accountEmail, cep: '', street: '', number: '', complement: '', district: '', city: '', cityCode: '', state: '' };
  return { ...saved, document: saved.documentFormatted, complement: saved.complement ?? '', cityCode: saved.cityCode ?? '' };
}

function StateField() {
  const [field, meta] = useField<string>('state');
  const invalid = Boolean(meta.touched && meta.error);
  return (
    <Form.Group className="mb-3" controlId="field-state">
      <Form.Label>UF</Form.Label>
      <Form.Select {...field} isInvalid={invalid} aria-invalid={invalid} aria-describedby={invalid ? 'field-state-error' : undefined}>
        <option value="">Escolha…</option>
        {BRAZILIAN_STATES.map((uf) => (
          <option key={uf} value={uf}>
            {uf}
          </option>
        ))}
      </Form.Select>
      <Form.Control.Feedback type="invalid" id="field-state-error" role="alert">
        {meta.error}
      </Form.Control.Feedback>
    </Form.Group>
  );
}

export function BillingDetailsForm({
  saved,
  accountEmail,
  submitLabel,
  onSaved,
  secondary,
}: {
  saved: ApiBillingDetails | null;
  accountEmail: string;
  submitLabel: string;
  onSaved(details: ApiBillingDetails): void;
  /** A button beside the submit one (e.g. the modal's Cancelar). */
  secondary?: React.ReactNode;
}) {
  const submit = async (values: Values, helpers: FormikHelpers<Values>) => {
    try {
      const answer = await billingApi.save(values as unknown as BillingDetailsRequest);
      if (answer.billingDetails) onSaved(answer.billingDetails);
    } catch (e) {
      showServerErrors(e, helpers, FIELDS, BILLING_MESSAGES.documentInvalid);
    } finally {
      helpers.setSubmitting(false);
    }
  };
  return (
    <Formik<Values> initialValues={initialValues(saved, accountEmail)} validationSchema={billingDetailsSchema} validateOnBlur={false} onSubmit={submit} enableReinitialize>
      {({ isSubmitting }) => (
        <FormikForm noValidate data-testid="billing-form">
          <Row>
            <Col md={5}>
              <FormField name="document" label="CPF ou CNPJ" autoComplete="off" helper="Com ou sem pontuação; CNPJ alfanumérico também." />
            </Col>
            <Col md={7}>
              <FormField name="name" label="Nome completo ou razão social" autoComplete="organization" />
            </Col>
          </Row>
          <FormField name="email" label="E-mail para as notas fiscais" type="email" autoComplete="email" />
          <Row>
            <Col md={4}>
              <FormField name="cep" label="CEP" autoComplete="postal-code" helper="00000-000" />
            </Col>
            <Col md={8}>
              <FormField name="street" label="Logradouro" autoComplete="address-line1" />
            </Col>
          </Row>
          <Row>
            <Col md={3}>
              <FormField name="number" label="Número" />
            </Col>
            <Col md={5}>
              <FormField name="complement" label="Complemento (opcional)" autoComplete="address-line2" />
            </Col>
            <Col md={4}>
              <FormField name="district" label="Bairro" />
            </Col>
          </Row>
          <Row>
            <Col md={5}>
              <FormField name="city" label="Município" autoComplete="address-level2" />
            </Col>
            <Col md={4}>
              <FormField name="cityCode" label="Código IBGE (opcional)" helper="7 dígitos, se souber" />
            </Col>
            <Col md={3}>
              <StateField />
            </Col>
          </Row>
          <div className="d-flex flex-wrap justify-content-end gap-2">
            {secondary}
            <SubmitButton busy={isSubmitting} data-testid="billing-submit">
              {submitLabel}
            </SubmitButton>
          </div>
        </FormikForm>
      )}
    </Formik>
  );
}
