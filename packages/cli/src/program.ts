import { Command } from 'commander';
import { VERSION } from '@aabify/shared';

/** Builds the CLI's command tree. Each command lives in src/commands/ and registers itself here. */
export function buildProgram(): Command {
  const program = new Command();
  program
    .name('aabify')
    .description('Converte APKs Android em Android App Bundles (AAB) — localmente ou pelo serviço aabify.')
    .version(VERSION, '-V, --version', 'mostra a versão')
    .helpOption('-h, --help', 'mostra esta ajuda')
    .showHelpAfterError();
  return program;
}
