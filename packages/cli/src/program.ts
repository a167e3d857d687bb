import { Command } from 'commander';
import { VERSION } from '@aabify/shared';
import { EXIT_USAGE } from './commands/inspect.js';
import { register as registerConvert } from './commands/convertLocal.js';
import { register as registerInspect } from './commands/inspect.js';
import { register as registerValidate } from './commands/validate.js';

/** Builds the CLI's command tree. Each command lives in src/commands/ and registers itself here. */
export function buildProgram(): Command {
  const program = new Command();
  program
    .name('aabify')
    .description('Converte APKs Android em Android App Bundles (AAB) — localmente ou pelo serviço aabify.')
    .version(VERSION, '-V, --version', 'mostra a versão')
    .helpOption('-h, --help', 'mostra esta ajuda')
    .showHelpAfterError()
    // Every usage error commander finds (unknown option, missing argument ...) exits 2, as ours
    // do; help and version exit 0. Subcommands inherit this.
    .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : EXIT_USAGE));
  registerConvert(program);
  registerInspect(program);
  registerValidate(program);
  return program;
}
