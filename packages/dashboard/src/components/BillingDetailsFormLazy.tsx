/**
 * The billing details form, loaded when first shown: its form code (formik, the yup schema)
 * stays out of the screens that merely link to it (the signed-in first load carries no form code).
 */
import { Suspense, lazy, type ComponentProps } from 'react';
import { Loading } from './Loading';
import type { BillingDetailsForm } from './BillingDetailsForm';

const Form = lazy(() => import('./BillingDetailsForm').then((m) => ({ default: m.BillingDetailsForm })));

export function BillingDetailsFormLazy(props: ComponentProps<typeof BillingDetailsForm>) {
  return (
    <Suspense fallback={<Loading />}>
      <Form {...props} />
    </Suspense>
  );
}
