/**
 * `aabify inspect app.apk [--json]`: what the APK says (package, versions, SDK levels, ABIs,
 * locales, densities, dex files, sizes), read without converting anything.
 */
import { type Command } from 'commander';
import { downloadSizeLines } from '../signing.js';
import { EXIT_OK } from '../exitCodes.js';
import { formatApkFacts, reportFailure } from '../format.js';

interface InspectOptions {
  json?: boolean;
}

export async function runInspect(apk: string, options: InspectOptions): Promise<void> {
  try {
    const { inspectApk } = await import('@aabify/converter');
    const info = await inspectApk(apk, { downloadSizes: true });
    if (options.json) {
      process.stdout.write(`${JSON.stringify({ ok: true, apk: info }, null, 2)}\n`);
    } else {
      process.stdout.write(`${[`APK: ${apk}`, ...formatApkFacts(info), ...downloadSizeLines(info.downloadSizes)].join('\n')}\n`);
    }
    process.exitCode = EXIT_OK;
  } catch (e) {
    reportFailure(e, options.json === true);
  }
}

export function register(program: Command): Command {
  return program
    .command('inspect')
    .description('mostra o que um APK declara: pacote, versões, SDK, ABIs, idiomas, densidades, dex e tamanhos')
    .argument('<apk>', 'arquivo APK')
    .option('--json', 'saída em JSON')
    .action((apk: string, options: InspectOptions) => runInspect(apk, options));
}
