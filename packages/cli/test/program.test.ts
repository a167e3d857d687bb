import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { VERSION } from '@aabify/shared';
import { CLI_BIN, cliEnv } from './helpers/cli.js';

const bin = CLI_BIN;

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
    expect(r.stderr).to.match(/unknown command|too many arguments/);
  });
});
