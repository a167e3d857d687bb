import { Command } from 'commander';
import { EXIT_USAGE } from './exitCodes.js';
// convert.ts registers convertLocal.ts's `convert` with the server mode as its handler.
import { register as registerConvert } from './commands/convert.js';
import { register as registerInspect } from './commands/inspect.js';
import { register as registerValidate } from './commands/validate.js';
import { register as registerCheck } from './commands/check.js';
import { register as registerKeygen } from './commands/keygen.js';
import { register as registerBuildApks } from './commands/buildApks.js';
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
import { register as registerPlay } from './commands/play.js';
import { register as registerPublish } from './commands/publish.js';
import { register as registerVersion, runVersion, type VersionFlags } from './commands/version.js';
import { writeUsageErrorJson } from './output.js';

/** Builds the CLI's command tree. Each command lives in src/commands/ and registers itself here. */
export function buildProgram(): Command {
  const program = new Command();
  program
    .name('aabify')
    .description('Converte APKs Android em Android App Bundles (AAB) — localmente ou pelo serviço aabify.')
    // Not commander's .version(): ours also asks a configured server for its version.
    .option('-V, --version', 'mostra a versão (e a do servidor, se houver um configurado)')
    .option('--json', 'com --version: saída em JSON')
    .option('--url <url>', 'com --version: o servidor a consultar')
    // Root options only before the command, so `convert --json` stays the command's own flag.
    .enablePositionalOptions()
    .helpOption('-h, --help', 'mostra esta ajuda')
    .helpCommand('help [comando]', 'mostra a ajuda de um comando')
    .showHelpAfterError()
    // Every usage error commander finds (unknown option, missing argument ...) exits 2, as ours
    // do; help and version exit 0. Subcommands inherit this.
    .exitOverride((err) => {
      if (err.exitCode !== 0) writeUsageErrorJson(err);
      process.exit(err.exitCode === 0 ? 0 : EXIT_USAGE);
    });
  program.usage('[options] [command]').argument('[comando]').action(async (unknown: string | undefined, flags: VersionFlags & { version?: boolean }) => {
    if (unknown !== undefined) program.error(`error: unknown command '${unknown}' (comando desconhecido; veja aabify --help)`, { exitCode: EXIT_USAGE, code: 'commander.unknownCommand' });
    if (flags.version) return runVersion(flags);
    program.help({ error: true });
  });
  registerConvert(program);
  registerInspect(program);
  registerValidate(program);
  registerCheck(program);
  registerKeygen(program);
  registerBuildApks(program);
  registerVersion(program);
  for (const registerRemote of [registerLogin, registerLogout, registerWhoami, registerStatus, registerLogs, registerDownload, registerHistory, registerCancel, registerUsage, registerKeystore, registerPlay, registerPublish]) {
    registerRemote(program);
  }
  return program;
}
