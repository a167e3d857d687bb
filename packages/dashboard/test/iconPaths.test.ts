import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ICON_PATHS } from '../src/components/iconPaths';

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
