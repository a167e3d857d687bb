import { expect } from 'chai';
import { ValidationError } from 'yup';
import {
  PLAN_MESSAGES as M,
  planBulkCustomUpdateFormSchema,
  planBulkUpdateSchema,
  planFilterQuerySchema,
  planFormSchema,
  planInputSchema,
  planReorderSchema,
} from '../src/index.js';

type Schema = { validate(value: unknown, options?: { abortEarly?: boolean; stripUnknown?: boolean }): Promise<unknown> };

async function errorsOf(schema: Schema, value: unknown): Promise<Record<string, string>> {
  try {
    await schema.validate(value, { abortEarly: false, stripUnknown: true });
    return {};
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    const out: Record<string, string> = {};
    for (const e of err.inner.length ? err.inner : [err]) out[e.path ?? ''] ??= e.message;
    return out;
  }
}

const credit = { name: 'Pacote 10', type: 'credit', price: 19.9, credits: 10 };
const subscription = { name: 'Mensal', type: 'subscription', price: 49.9, subscriptionDetails: { duration: 1 } };

describe('plan schemas', () => {
  it('planInput_creditPlan_defaultsAppliedAndDurationDropped', async () => {
    const v = await planInputSchema.validate({ ...credit, subscriptionDetails: { duration: 3 } }, { stripUnknown: true });
    expect(v).to.deep.equal({
      name: 'Pacote 10',
      description: '',
      type: 'credit',
      price: 19.9,
      currency: 'BRL',
      credits: 10,
      features: [],
      isPopular: false,
      isActive: true,
    });
  });

  it('planInput_subscriptionPlan_creditsDroppedDurationKept', async () => {
    const v = await planInputSchema.validate({ ...subscription, credits: 50 }, { stripUnknown: true });
    expect(v).to.not.have.property('credits');
    expect(v.subscriptionDetails).to.deep.equal({ duration: 1 });
  });

  it('planInput_subscriptionWithoutDuration_defaultsToOneMonth', async () => {
    const v = await planInputSchema.validate({ name: 'Mensal', type: 'subscription', price: 10 });
    expect(v.subscriptionDetails).to.deep.equal({ duration: 1 });
  });

  it('planInput_blankName_nameRequired', async () => {
    expect(await errorsOf(planInputSchema, { ...credit, name: '   ' })).to.deep.equal({ name: M.nameRequired });
    expect(await errorsOf(planInputSchema, { ...credit, name: undefined })).to.deep.equal({ name: M.nameRequired });
  });

  it('planInput_nameWithSpaces_trimmed', async () => {
    expect((await planInputSchema.validate({ ...credit, name: '  Pro  ' })).name).to.equal('Pro');
  });

  it('planInput_negativePrice_priceNegative', async () => {
    expect(await errorsOf(planInputSchema, { ...credit, price: -0.01 })).to.deep.equal({ price: M.priceNegative });
  });

  it('planInput_zeroPrice_accepted', async () => {
    expect(await errorsOf(planInputSchema, { ...credit, price: 0 })).to.deep.equal({});
  });

  it('planInput_priceWithThreeDecimals_priceDecimals', async () => {
    expect(await errorsOf(planInputSchema, { ...credit, price: 1.999 })).to.deep.equal({ price: M.priceDecimals });
  });

  it('planInput_priceNotNumber_priceInvalid', async () => {
    expect(await errorsOf(planInputSchema, { ...credit, price: 'abc' })).to.deep.equal({ price: M.priceInvalid });
  });

  for (const duration of [0, -1, 1.5, 'x', null]) {
    it(`planInput_subscriptionDuration${String(duration)}_durationRequired`, async () => {
      expect(await errorsOf(planInputSchema, { ...subscription, subscriptionDetails: { duration } })).to.deep.equal({
        'subscriptionDetails.duration': M.durationRequired,
      });
    });
  }

  for (const credits of [0, -5, undefined, null, 'x']) {
    it(`planInput_creditPlanCredits${String(credits)}_creditsRequired`, async () => {
      expect(await errorsOf(planInputSchema, { ...credit, credits })).to.deep.equal({ credits: M.creditsRequired });
    });
  }

  it('planInput_fractionalCredits_creditsInteger', async () => {
    expect(await errorsOf(planInputSchema, { ...credit, credits: 2.5 })).to.deep.equal({ credits: M.creditsInteger });
  });

  it('planInput_subscriptionWithBadCredits_creditsIgnored', async () => {
    expect(await errorsOf(planInputSchema, { ...subscription, credits: -3 })).to.deep.equal({});
  });

  it('planInput_creditPlanWithBadDuration_durationIgnored', async () => {
    expect(await errorsOf(planInputSchema, { ...credit, subscriptionDetails: { duration: 0 } })).to.deep.equal({});
  });

  it('planInput_unknownType_typeInvalid', async () => {
    expect(await errorsOf(planInputSchema, { ...credit, type: 'lifetime' })).to.include({ type: M.typeInvalid });
  });

  it('planInput_unknownCurrency_currencyInvalid', async () => {
    expect(await errorsOf(planInputSchema, { ...credit, currency: 'GBP' })).to.deep.equal({ currency: M.currencyInvalid });
    for (const currency of ['BRL', 'USD', 'EUR']) expect(await errorsOf(planInputSchema, { ...credit, currency })).to.deep.equal({});
  });

  it('planInput_blankFeatureLines_dropped', async () => {
    const v = await planInputSchema.validate({ ...credit, features: ['Rápido', '  ', '', ' Suporte '] });
    expect(v.features).to.deep.equal(['Rápido', 'Suporte']);
    const fromText = await planInputSchema.validate({ ...credit, features: 'Rápido\n\n  \nSuporte' });
    expect(fromText.features).to.deep.equal(['Rápido', 'Suporte']);
  });

  it('planInput_displayOrderZeroAccepted_absentLeftToTheServer', async () => {
    expect(await errorsOf(planInputSchema, { ...credit, displayOrder: 0 })).to.deep.equal({});
    // Absent: the server places the new plan last.
    expect((await planInputSchema.validate(credit)).displayOrder).to.equal(undefined);
    expect(await errorsOf(planInputSchema, { ...credit, displayOrder: -1 })).to.deep.equal({ displayOrder: M.displayOrderInvalid });
  });

  it('planForm_displayOrderZero_displayOrderMin', async () => {
    expect(await errorsOf(planFormSchema, { ...credit, displayOrder: 0 })).to.deep.equal({ displayOrder: M.displayOrderMin });
    expect(await errorsOf(planFormSchema, { ...credit, displayOrder: 1 })).to.deep.equal({});
  });

  it('planInput_everyRuleBroken_allMessagesAtOnce', async () => {
    expect(await errorsOf(planInputSchema, { name: '', type: 'credit', price: -1, credits: 0 })).to.deep.equal({
      name: M.nameRequired,
      price: M.priceNegative,
      credits: M.creditsRequired,
    });
  });

  it('bulkCustomUpdateForm_noField_bulkUpdateEmpty', async () => {
    expect(await errorsOf(planBulkCustomUpdateFormSchema, {})).to.deep.equal({ '': M.bulkUpdateEmpty });
    expect(await errorsOf(planBulkCustomUpdateFormSchema, { price: '' })).to.deep.equal({ '': M.bulkUpdateEmpty });
    expect(await errorsOf(planBulkCustomUpdateFormSchema, { currency: 'USD' })).to.deep.equal({});
    expect(await errorsOf(planBulkCustomUpdateFormSchema, { displayOrder: 2 })).to.deep.equal({});
  });

  it('bulkUpdate_flagsOnly_accepted', async () => {
    const id = '6f1c1b5e-4d3a-4b7a-9a53-3f9c2c1f0a11';
    expect(await errorsOf(planBulkUpdateSchema, { planIds: [id], updates: { isActive: false } })).to.deep.equal({});
    expect(await errorsOf(planBulkUpdateSchema, { planIds: [id], updates: {} })).to.deep.equal({ updates: M.bulkUpdateEmpty });
    expect(await errorsOf(planBulkUpdateSchema, { planIds: [id] })).to.deep.equal({ updates: M.bulkUpdateEmpty });
    expect(await errorsOf(planBulkUpdateSchema, { planIds: [], updates: { price: 1 } })).to.deep.equal({ planIds: M.planIdsRequired });
  });

  it('reorder_idInsteadOfPlanId_accepted', async () => {
    const id = '6f1c1b5e-4d3a-4b7a-9a53-3f9c2c1f0a11';
    const v = await planReorderSchema.validate({ planOrders: [{ id, displayOrder: 3 }] });
    expect(v.planOrders[0]).to.deep.include({ planId: id, displayOrder: 3 });
  });

  it('filterQuery_strings_castWithDefaults', async () => {
    const v = await planFilterQuerySchema.validate({ page: '2', limit: '50', minPrice: '10.5', sortOrder: 'DESC', type: '' });
    expect(v).to.deep.include({ page: 2, limit: 50, minPrice: 10.5, sortOrder: 'desc', sortBy: 'displayOrder' });
    expect(v.type).to.equal(undefined);
    expect(await errorsOf(planFilterQuerySchema, { limit: '500' })).to.have.property('limit');
  });
});
