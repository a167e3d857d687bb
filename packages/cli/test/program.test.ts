import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { CLI_BIN, cliEnv } from './helpers/cli.js';

const bin = CLI_BIN;
const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

function aabify(...args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: cliEnv(), timeout: 30000 });
}

describe('aabify program', () => {
  it('version_flag_printsPackageVersion', () => {
    const r = aabify('--version');
    expect(r.status).to.equal(0);
    expect(r.stdout.trim()).to.equal(VERSION);
  });

  it('help_flag_describesTheToolInPortuguese', () => {
    const r = aabify('--help');
    expect(r.status).to.equal(0);
    expect(r.stdout).to.contain('Usage: aabify').and.contain('Converte APKs Android em Android App Bundles');
  });

  it('unknownCommand_exitsWithUsageError', () => {
    const r = aabify('frobnicate');
    expect(r.status).to.not.equal(0);
    expect(r.stderr).to.match(/unknown command 'frobnicate'/);
  });

  it('version_json_isVersionedDocumentWithoutServer', () => {
    const r = spawnSync(process.execPath, [bin, '--version', '--json'], { encoding: 'utf8', env: { ...cliEnv(), AABIFY_URL: '', XDG_CONFIG_HOME: '/nonexistent' }, timeout: 30000 });
    expect(r.status).to.equal(0);
    expect(JSON.parse(r.stdout)).to.deep.equal({ schemaVersion: 1, ok: true, name: '@aabify/cli', version: VERSION, node: process.versions.node, server: null });
  });

  it('version_unreachableServer_reportsItAndExitsZero', () => {
    const r = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8', env: { ...cliEnv(), AABIFY_URL: 'http://127.0.0.1:9' }, timeout: 30000 });
    expect(r.status).to.equal(0);
    expect(r.stdout.split('\n')[0]).to.equal(VERSION);
    expect(r.stdout).to.contain('servidor http://127.0.0.1:9: indisponível');
  });
});
