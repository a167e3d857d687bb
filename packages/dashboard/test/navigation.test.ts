import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { ACCOUNT_MENU, ADMIN_NAV, MAIN_NAV, visibleTo } from '../src/navigation';

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
