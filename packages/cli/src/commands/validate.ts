/**
 * `aabify validate app.aab [--json]`: checks an AAB against the bundle rules bundletool and
 * Google Play enforce. Exit 1 with the list of problems when it breaks any.
 */
import { type Command } from 'commander';
import { EXIT_FAILED, EXIT_OK } from '../exitCodes.js';
import { reportFailure } from '../format.js';
import { writeJsonDocument } from '../jsonDocument.js';
import { sanitize } from '../safeText.js';

interface ValidateOptions {
  json?: boolean;
}

export async function runValidate(aab: string, options: ValidateOptions): Promise<void> {
  try {
    const { validateBundle } = await import('@aabify/converter');
    const problems = await validateBundle(aab);
    const valid = problems.length === 0;
    if (options.json) {
      writeJsonDocument({ ok: valid, aab, valid, problems });
    } else if (valid) {
      process.stdout.write(`${sanitize(aab, false)}: AAB válido.\n`);
    } else {
      const lines = problems.map((p) => `  - [${p.rule}] ${p.message}${p.path ? ` (${p.path})` : ''}`);
      // The problems quote the bundle's entry names.
      process.stderr.write(`${sanitize(`${aab}: AAB inválido, ${problems.length} ${problems.length === 1 ? 'problema' : 'problemas'}:\n${lines.join('\n')}`)}\n`);
    }
    process.exitCode = valid ? EXIT_OK : EXIT_FAILED;
  } catch (e) {
    reportFailure(e, options.json === true);
  }
}

export function register(program: Command): Command {
  return program
    .command('validate')
    .description('verifica se um AAB segue as regras do bundletool e do Google Play')
    .argument('<aab>', 'arquivo AAB')
    .option('--json', 'saída em JSON')
    .action((aab: string, options: ValidateOptions) => runValidate(aab, options));
}
