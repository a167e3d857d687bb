import { Command } from 'commander';
import { VERSION } from '@aabify/shared';
import { EXIT_USAGE } from './exitCodes.js';
// convert.ts registers convertLocal.ts's `convert` with the server mode as its handler.
import { register as registerConvert } from './commands/convert.js';
import { register as registerInspect } from './commands/inspect.js';
import { register as registerValidate } from './commands/validate.js';
import { register as registerKeygen } from './commands/keygen.js';
import { register as registerLogin } from './commands/login.js';
import { register as registerLogout } from './commands/logout.js';
import { register as registerWhoami } from './commands/whoami.js';
import { register as registerStatus } from './commands/status.js';
import { register as registerLogs } from './commands/logs.js';
import { register as registerDownload } from './commands/download.js';
import { register as registerHistory } from './commands/history.js';
import { register as registerCancel } from './commands/cancel.js';
import { register as registerUsage } from './commands/usage.js';
import { register as registerKeystore } from './commands/keystore.js';
import { writeUsageErrorJson } from './output.js';

/** Builds the CLI's command tree. Each command lives in src/commands/ and registers itself here. */
export function buildProgram(): Command {
  const program = new Command();
  program
    .name('aabify')
    .description('Converte APKs Android em Android App Bundles (AAB) — localmente ou pelo serviço aabify.')
    .version(VERSION, '-V, --version', 'mostra a versão')
    .helpOption('-h, --help', 'mostra esta ajuda')
    .helpCommand('help [comando]', 'mostra a ajuda de um comando')
    .showHelpAfterError()
    // Every usage error commander finds (unknown option, missing argument ...) exits 2, as ours
    // do; help and version exit 0. Subcommands inherit this.
    .exitOverride((err) => {
      if (err.exitCode !== 0) writeUsageErrorJson(err);
      process.exit(err.exitCode === 0 ? 0 : EXIT_USAGE);
    });
  registerConvert(program);
  registerInspect(program);
  registerValidate(program);
  registerKeygen(program);
  for (const registerRemote of [registerLogin, registerLogout, registerWhoami, registerStatus, registerLogs, registerDownload, registerHistory, registerCancel, registerUsage, registerKeystore]) {
    registerRemote(program);
  }
  return program;
}
