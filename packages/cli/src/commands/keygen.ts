/**
 * `aabify keygen [-o upload.p12] [--alias upload] [--dname "CN=..."] [--ks-pass ...] [--json]`:
 * creates a new upload key (RSA 2048, self-signed certificate valid ~27 years) in a PKCS12
 * keystore, and prints the certificate (PEM) and its fingerprints to register in Play Console.
 */
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { type Command } from 'commander';
import { EXIT_OK, EXIT_USAGE } from '../exitCodes.js';
import { formatRows, reportFailure } from '../format.js';
import { writeJsonDocument } from '../jsonDocument.js';
import { parsePasswordSpec, resolvePassword } from '../signing.js';

interface KeygenFlags {
  output: string;
  alias: string;
  dname: string;
  ksPass?: string;
  overwrite?: boolean;
  json?: boolean;
}

export async function runKeygen(flags: KeygenFlags, command: Command): Promise<void> {
  const json = flags.json === true;
  if (!flags.ksPass) {
    command.error('erro: informe a senha do novo keystore com --ks-pass env:VAR, pass:SENHA ou file:ARQUIVO.', { exitCode: EXIT_USAGE, code: 'aabify.missingPassword' });
  }
  if (existsSync(flags.output) && !flags.overwrite) {
    command.error(`erro: ${flags.output} já existe; use --overwrite para substituí-lo (e perder a chave que ele guarda).`, {
      exitCode: EXIT_USAGE,
      code: 'aabify.outputExists',
    });
  }
  try {
    const password = resolvePassword(flags.ksPass, '--ks-pass');
    const { generateUploadKeystore } = await import('@aabify/converter');
    const gen = generateUploadKeystore({ alias: flags.alias, dname: flags.dname, password });
    writeFileSync(flags.output, gen.keystore, { mode: 0o600 });
    // The mode only applies to a new file: one overwritten keeps its old mode, maybe world-readable.
    chmodSync(flags.output, 0o600);
    const facts = {
      keystore: flags.output,
      alias: gen.alias,
      subject: gen.subject,
      notAfter: gen.notAfter.toISOString(),
      sha1: gen.sha1,
      sha256: gen.sha256,
      certificatePem: gen.certificatePem,
    };
    if (json) {
      writeJsonDocument({ ok: true, key: facts });
    } else {
      process.stdout.write(
        [
          `Chave de upload criada: ${flags.output}`,
          ...formatRows([
            ['Alias', gen.alias],
            ['Certificado', gen.subject],
            ['Válido até', facts.notAfter.slice(0, 10)],
            ['SHA-1', gen.sha1],
            ['SHA-256', gen.sha256],
          ]),
          '',
          'Guarde o keystore e a senha em local seguro: sem eles não é possível enviar atualizações.',
          'Registre este certificado como chave de upload no Play Console (Configuração do app › Integridade do app):',
          '',
          gen.certificatePem.trimEnd(),
        ].join('\n') + '\n',
      );
    }
    process.exitCode = EXIT_OK;
  } catch (e) {
    if (e instanceof Error && !('code' in e)) {
      process.stderr.write(`erro: ${e.message}\n`);
      if (json) writeJsonDocument({ ok: false, error: { code: 'USAGE', message: e.message }, exitCode: EXIT_USAGE });
      process.exitCode = EXIT_USAGE;
      return;
    }
    reportFailure(e, json);
  }
}

export function register(program: Command): Command {
  return program
    .command('keygen')
    .description('cria uma chave de upload (PKCS12, RSA 2048) para assinar AABs e mostra o certificado para o Play Console')
    .option('-o, --output <arquivo>', 'keystore a criar', 'upload.p12')
    .option('--alias <alias>', 'alias da chave', 'upload')
    .option('--dname <nome>', 'nome distinto do certificado, ex.: "CN=Ana Souza, O=Empresa, C=BR"', 'CN=Upload Key')
    .option('--ks-pass <senha>', 'senha do keystore: env:VAR, pass:SENHA ou file:ARQUIVO', parsePasswordSpec)
    .option('--overwrite', 'substitui o arquivo se ele já existir')
    .option('--json', 'saída em JSON')
    .action((flags: KeygenFlags, command: Command) => runKeygen(flags, command));
}
