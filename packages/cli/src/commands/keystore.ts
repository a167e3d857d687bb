/**
 * `aabify keystore upload|show|delete`: the upload keystore kept in the account on the server
 * (docs/signing.md "Sign conversions in the web service"), which `aabify convert app.apk --sign` uses. The server opens the
 * keystore in a worker, within the engine's caps, before storing it (422 BAD_KEYSTORE /
 * KEYSTORE_PASSWORD / KEYSTORE_ALIAS / KEYSTORE_ITERATIONS / KEYSTORE_TOO_… / KEYSTORE_TIMEOUT,
 * exit 1; 429 KEYSTORE_BUSY while another of the account's keystores is being opened, retried),
 * keeps it encrypted and never gives it back: `show` prints only the certificate's public facts.
 *
 *   aabify keystore upload upload.p12 --alias upload --ks-pass env:KS_PASS [--key-pass env:KEY_PASS]
 *   aabify keystore show [--json]
 *   aabify keystore delete
 */
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Command } from 'commander';
import { KEYSTORE_LIMITS } from '@aabify/shared/keystores';
import { EXIT_OK, usageError } from '../api/errors.js';
import { expectRecord, formatDate, num, str, unexpected } from '../api/types.js';
import { requireToken, runRemote, withRemoteOptions, type RemoteContext, type RemoteFlags } from '../remote.js';
import { parsePasswordSpec, resolvePassword } from '../signing.js';
import { withAccountSession } from '../accountSession.js';
import { formatRows } from '../format.js';

export interface KeystoreUploadFlags extends RemoteFlags {
  alias?: string;
  ksPass?: string;
  keyPass?: string;
}

/** What the server shows of a stored keystore (never the key nor its passwords). */
export interface KeystoreFacts {
  alias: string;
  format: string;
  keyAlgorithm: string;
  keySize: number;
  subject: string;
  certificateSha1: string;
  certificateSha256: string;
  notAfter: string;
  fileName: string | null;
  createdAt?: string;
  updatedAt?: string;
}

/** `{ keystore: {...} }` checked at the edge. */
export function readKeystoreFacts(body: unknown): KeystoreFacts {
  const k = expectRecord(expectRecord(body, 'keystore').keystore, 'keystore');
  const alias = str(k.alias);
  const sha256 = str(k.certificateSha256);
  if (!alias || !sha256) throw unexpected('keystore', body);
  return {
    alias,
    format: str(k.format) ?? '?',
    keyAlgorithm: str(k.keyAlgorithm) ?? '?',
    keySize: num(k.keySize) ?? 0,
    subject: str(k.subject) ?? '',
    certificateSha1: str(k.certificateSha1) ?? '',
    certificateSha256: sha256,
    notAfter: str(k.notAfter) ?? '',
    fileName: str(k.fileName) ?? null,
    ...(str(k.createdAt) ? { createdAt: str(k.createdAt) } : {}),
    ...(str(k.updatedAt) ? { updatedAt: str(k.updatedAt) } : {}),
  };
}

export function keystoreLines(k: KeystoreFacts): string[] {
  return [
    'Chave de upload cadastrada na conta:',
    ...formatRows([
      ['Alias', `${k.alias} (${k.format}, ${k.keyAlgorithm} ${k.keySize} bits)`],
      ['Certificado', k.subject],
      ['SHA-256', k.certificateSha256],
      ['SHA-1', k.certificateSha1],
      ['Válido até', formatDate(k.notAfter) ?? '—'],
      ...(k.fileName ? ([['Arquivo', k.fileName]] as const) : []),
      ...(k.updatedAt ? ([['Enviado em', formatDate(k.updatedAt) ?? k.updatedAt]] as const) : []),
    ]),
  ];
}

function password(spec: string, what: string): string {
  try {
    return resolvePassword(spec, what);
  } catch (e) {
    throw usageError((e as Error).message, 'PASSWORD_SOURCE');
  }
}

export async function runKeystoreUpload(ctx: RemoteContext, file: string, flags: KeystoreUploadFlags): Promise<typeof EXIT_OK> {
  if (!flags.ksPass) throw usageError('Informe a senha do keystore com --ks-pass env:VAR, pass:SENHA ou file:ARQUIVO.', 'MISSING_PASSWORD');
  let size: number;
  try {
    const s = await stat(file);
    if (!s.isFile()) throw new Error('not a file');
    size = s.size;
  } catch {
    throw usageError(`Arquivo não encontrado: ${file}`, 'FILE_NOT_FOUND');
  }
  if (size === 0 || size > KEYSTORE_LIMITS.maxBytes) {
    throw usageError(`O keystore deve ter entre 1 byte e ${KEYSTORE_LIMITS.maxBytes / 1024} KB (${file} tem ${size} bytes).`, 'INVALID_KEYSTORE_FILE');
  }
  const storePassword = password(flags.ksPass, '--ks-pass');
  const keyPassword = flags.keyPass ? password(flags.keyPass, '--key-pass') : undefined;
  const bytes = await readFile(file);
  // Replacing the account's key takes its password: an API token may not (accountSession.ts).
  const body = await withAccountSession(ctx, (session) =>
    ctx.api.json('PUT', '/account/keystore', {
      token: session,
      body: {
        keystore: bytes.toString('base64'),
        storePassword,
        fileName: basename(file),
        ...(flags.alias ? { alias: flags.alias } : {}),
        ...(keyPassword ? { keyPassword } : {}),
      },
    }),
  );
  const keystore = readKeystoreFacts(body);
  const message = str(expectRecord(body, 'keystore').message) ?? 'Keystore salvo.';
  ctx.output.result({ message, keystore }, [message, ...keystoreLines(keystore)]);
  return EXIT_OK;
}

export async function runKeystoreShow(ctx: RemoteContext): Promise<typeof EXIT_OK> {
  requireToken(ctx.connection);
  const body = await ctx.api.json('GET', '/account/keystore');
  // No keystore is an empty state, not a failure: the server answers `keystore: null`.
  if (expectRecord(body, 'keystore').keystore === null) {
    ctx.output.result({ keystore: null }, 'Nenhuma chave de upload cadastrada na conta. Envie uma com: aabify keystore upload <keystore>');
    return EXIT_OK;
  }
  const keystore = readKeystoreFacts(body);
  ctx.output.result({ keystore }, keystoreLines(keystore));
  return EXIT_OK;
}

export async function runKeystoreDelete(ctx: RemoteContext): Promise<typeof EXIT_OK> {
  await withAccountSession(ctx, (session) => ctx.api.json('DELETE', '/account/keystore', { token: session }));
  ctx.output.result({ deleted: true }, 'Keystore removido da conta.');
  return EXIT_OK;
}

export function register(program: Command): Command {
  const keystore = program
    .command('keystore')
    .description('a chave de upload guardada na sua conta no servidor, usada por convert --sign');
  withRemoteOptions(
    keystore
      .command('upload')
      .description('envia (ou substitui) o keystore de upload da conta; o servidor o guarda criptografado e nunca o devolve')
      .argument('<keystore>', 'arquivo PKCS12 (.p12/.pfx) ou JKS (.jks/.keystore), até 64 KB')
      .option('--alias <alias>', 'alias da chave no keystore (opcional se houver só uma)')
      .option('--ks-pass <senha>', 'senha do keystore: env:VAR, pass:SENHA ou file:ARQUIVO', parsePasswordSpec)
      .option('--key-pass <senha>', 'senha da chave, se diferente da do keystore (env:, pass: ou file:)', parsePasswordSpec),
  ).action((file: string, flags: KeystoreUploadFlags) => runRemote(flags, (ctx) => runKeystoreUpload(ctx, file, flags)));
  withRemoteOptions(keystore.command('show').description('mostra alias, certificado, impressão digital SHA-256 e validade da chave de upload da conta')).action(
    (flags: RemoteFlags) => runRemote(flags, runKeystoreShow),
  );
  withRemoteOptions(keystore.command('delete').description('remove o keystore de upload da conta')).action((flags: RemoteFlags) => runRemote(flags, runKeystoreDelete));
  return keystore;
}
