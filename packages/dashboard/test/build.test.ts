import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('..', import.meta.url));
// A build of its own: dist/ may be served by browser tests running beside this suite.
const out = mkdtempSync(join(tmpdir(), 'aabify-dashboard-build-'));

describe('dashboard build', function () {
  this.timeout(120000);
  before(() => {
    const r = spawnSync(process.execPath, ['build.mjs'], { cwd: dir, encoding: 'utf8', env: { ...process.env, AABIFY_DASHBOARD_OUTDIR: out } });
    if (r.status !== 0) throw new Error(r.stderr);
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  it('indexHtml_built_referencesHashedAssetsThatExist', () => {
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    expect(html).to.contain('<html lang="pt-BR">');
    const refs = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.some((r) => /^main-[A-Z0-9]+\.js$/.test(r))).to.equal(true);
    expect(refs.some((r) => /^main-[A-Z0-9]+\.css$/.test(r))).to.equal(true);
    for (const ref of refs) expect(existsSync(join(out, 'assets', ref)), ref).to.equal(true);
  });

  it('indexHtml_setsThemeBeforeFirstPaint', () => {
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    const head = html.slice(0, html.indexOf('</head>'));
    // A blocking script file in <head>, before the stylesheet (the CSP allows no inline script).
    const themeScript = head.indexOf('<script src="/theme.js"></script>');
    expect(themeScript).to.be.greaterThan(-1);
    expect(themeScript).to.be.lessThan(head.search(/<link rel="stylesheet"/));
    expect(head).not.to.match(/<script(?![^>]*\bsrc=)[^>]*>/);
    const script = readFileSync(join(out, 'theme.js'), 'utf8');
    expect(script).to.contain("localStorage.getItem('aabify-theme')").and.contain('prefers-color-scheme: dark');
  });

  it('landingRoutes_ownHtml_preloadTheScreensChunk_converterPaintedWithoutTestIds', () => {
    for (const name of ['converter', 'dashboard', 'login', 'register']) {
      const html = readFileSync(join(out, 'routes', `${name}.html`), 'utf8');
      const preloads = [...html.matchAll(/<link rel="modulepreload" fetchpriority="low" href="\/assets\/([^"]+)">/g)].map((m) => m[1]!);
      for (const ref of preloads) expect(existsSync(join(out, 'assets', ref)), `${name}: ${ref}`).to.equal(true);
      const screenChunk = { converter: /^ConverterPage-/, dashboard: /^customerScreens-/, login: /^publicScreens-/, register: /^publicScreens-/ }[name]!;
      expect(preloads.some((r) => screenChunk.test(r)), name).to.equal(true);
    }
    const converter = readFileSync(join(out, 'routes', 'converter.html'), 'utf8');
    const screen = converter.slice(converter.indexOf('<div class="boot-screen">'), converter.indexOf('<div class="boot-loading'));
    expect(screen).to.contain('<h1 class="h3 mb-1">Converter APK em AAB</h1>').and.contain('Arraste e solte seu APK aqui');
    // Tests wait for the app's own elements, never the painted copy's.
    expect(screen).not.to.contain('data-testid');
    // The signed-in first load carries no form code: the public screens are their own chunk.
    expect(converter).not.to.match(/publicScreens-/);
  });
});
