import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { MONEY_INPUT_MESSAGES } from '@aabify/shared';
import { ICON_PATHS } from '../src/components/iconPaths';
import { moneyText, pasteMoney, typeMoney } from '../src/lib/moneyInput';
import { ACCOUNT_MENU, ADMIN_NAV, MAIN_NAV, visibleTo } from '../src/navigation';
import { withToast, type ToastItem } from '../src/stores/toasts';
import { greeting, displayName } from '../src/lib/userName';

/** Types text key by key into the BRL field, as a person would. */
function typeKeys(keys: string, start = ''): ReturnType<typeof typeMoney> {
  let state = { text: start, cents: null as number | null } as ReturnType<typeof typeMoney>;
  for (const k of keys) state = typeMoney(state.text, state.text + k);
  return state;
}

describe('BRL field', () => {
  it('typeMoney_commaTyped_1990CentsShownAs19Comma90', () => {
    expect(typeKeys('19,90')).to.deep.equal({ text: '19,90', cents: 1990 });
  });
  it('typeMoney_dotTypedAsDecimal_sameAmount', () => {
    expect(typeKeys('19.90')).to.deep.equal({ text: '19,90', cents: 1990 });
    expect(typeKeys('19.9')).to.deep.equal({ text: '19,9', cents: 1990 });
  });
  it('typeMoney_thousands_groupedAsOneTypes', () => {
    expect(typeKeys('1234').text).to.equal('1.234');
    expect(typeKeys('1234,56')).to.deep.equal({ text: '1.234,56', cents: 123456 });
    // Deleting a digit from '1.234' keeps thousands, not a decimal point.
    expect(typeMoney('1.234', '1.23')).to.deep.equal({ text: '123', cents: 12300 });
  });
  it('typeMoney_thirdDecimalOrLetters_messageOrIgnored', () => {
    expect(typeKeys('19,999').error).to.equal(MONEY_INPUT_MESSAGES.tooManyDecimals);
    expect(typeKeys('1a9')).to.deep.equal({ text: '19', cents: 1900 });
    expect(typeKeys('-5')).to.deep.equal({ text: '5', cents: 500 });
  });
  it('pasteMoney_anyStyle_sameAmount', () => {
    expect(pasteMoney('R$ 1.234,56')).to.deep.equal({ text: '1.234,56', cents: 123456 });
    expect(pasteMoney('1,234.56').cents).to.equal(123456);
    expect(moneyText(199000)).to.equal('1.990,00');
  });
});

describe('toasts and names', () => {
  it('withToast_successAfterErrors_closesTheErrors', () => {
    const err: ToastItem = { id: 1, variant: 'danger', message: 'Erro', duration: 4000 };
    const info: ToastItem = { id: 2, variant: 'info', message: 'i', duration: 4000 };
    const ok: ToastItem = { id: 3, variant: 'success', message: 'Salvo', duration: 2000 };
    expect(withToast([err, info], ok).map((t) => t.id)).to.deep.equal([2, 3]);
  });
  it('greeting_nameOrEmail_neutral', () => {
    expect(greeting({ name: 'Ana', email: 'a@x.com' })).to.equal('Boas-vindas, Ana!');
    expect(greeting({ name: '  ', email: 'a@x.com' })).to.equal('Boas-vindas, a@x.com!');
    expect(displayName({ email: 'b@x.com' })).to.equal('b@x.com');
  });
});

describe('navigation as data', () => {
  it('adminNav_everyEntry_aKnownAdminRouteAndGroupsHaveLabels', () => {
    const routes = readFileSync(new URL('../src/admin/AdminRoutes.tsx', import.meta.url), 'utf8');
    for (const g of ADMIN_NAV) {
      expect(g.label).to.not.equal('');
      for (const e of g.entries) {
        const sub = e.to.replace(/^\/admin\/?/, '');
        expect(sub === '' || routes.includes(`path="${sub}"`), e.to).to.equal(true);
      }
    }
    const labels = ADMIN_NAV.flatMap((g) => g.entries.map((e) => e.label));
    expect(labels).to.include('Fila e Sistema');
    expect(labels.some((l) => /Dashboard|Admins\b/.test(l))).to.equal(false);
  });
  it('menus_byRole_customersSeeTheirPurchasesAdminsTheAdminArea', () => {
    const admin = { role: 'admin' } as Parameters<typeof visibleTo>[1];
    const user = { role: 'user' } as Parameters<typeof visibleTo>[1];
    expect(visibleTo(MAIN_NAV, admin).map((e) => e.to)).to.include('/admin').and.not.include('/dashboard');
    expect(visibleTo(ACCOUNT_MENU, user).map((e) => e.label)).to.include('Minhas compras');
    expect(visibleTo(ACCOUNT_MENU, admin).map((e) => e.label)).to.not.include('Minhas compras');
  });
  it('accountMenu_everyLink_aRouteOfAppWithItsScreenInTheCustomerChunk', () => {
    const app = readFileSync(new URL('../src/App.tsx', import.meta.url), 'utf8');
    const screens = readFileSync(new URL('../src/pages/customerScreens.ts', import.meta.url), 'utf8');
    const links = ACCOUNT_MENU.flatMap((e) => (e.kind === 'link' ? [e] : []));
    // Personal API tokens: every account (admins too) sees and revokes its own.
    expect(links.find((e) => e.to === '/account/api-tokens')).to.include({ label: 'Tokens de API' }).and.not.have.property('visible');
    for (const e of links) {
      const route = new RegExp(`<Route path="${e.to}" element={(?:<\\w+>)*<(\\w+) />`).exec(app);
      expect(route, e.to).to.not.equal(null);
      expect(screens, e.to).to.contain(`as ${route![1]} }`);
    }
  });
});

describe('icons', () => {
  it('iconPaths_matchTheBootstrapIconsPackage', () => {
    const dir = join(dirname(createRequire(import.meta.url).resolve('bootstrap-icons/package.json')), 'icons');
    for (const [name, body] of Object.entries(ICON_PATHS)) {
      const svg = readFileSync(join(dir, `${name}.svg`), 'utf8');
      const inner = svg.replace(/^[\s\S]*?<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '').replace(/\s*\n\s*/g, '').trim();
      expect(body, name).to.equal(inner);
    }
  });
});
