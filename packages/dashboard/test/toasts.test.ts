import { expect } from 'chai';
import { durationFor, MAX_TOASTS, withToast, type ToastItem } from '../src/stores/toasts';

describe('toasts', () => {
  it('withToast_successAfterErrors_closesTheErrors', () => {
    const err: ToastItem = { id: 1, variant: 'danger', message: 'Erro', duration: 4000 };
    const info: ToastItem = { id: 2, variant: 'info', message: 'i', duration: 4000 };
    const ok: ToastItem = { id: 3, variant: 'success', message: 'Salvo', duration: 2000 };
    expect(withToast([err, info], ok).map((t) => t.id)).to.deep.equal([2, 3]);
  });
  it('durationFor_variants_durationsBySeverity', () => {
    expect(durationFor('info')).to.equal(4000);
    expect(durationFor('danger')).to.equal(4000);
    expect(durationFor('success')).to.equal(2000);
    expect(durationFor('success', true)).to.equal(3000);
  });
  it('withToast_over20_dropsTheOldest', () => {
    let list: ToastItem[] = [];
    for (let i = 1; i <= 25; i++) list = withToast(list, { id: i, variant: 'info', message: String(i), duration: 4000 });
    expect(list).to.have.length(MAX_TOASTS);
    expect(list[0]!.id).to.equal(6);
  });
});
