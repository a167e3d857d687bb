/**
 * `aabify play credentials set|show|delete|test`: the Google Play service-account key kept in the
 * account on the server (docs/play.md), which `aabify publish ID` and `convert --publish` use.
 * The server checks the key, keeps it encrypted and never gives it back: `show` prints only the
 * service account's e-mail and project. A pipeline that prefers to keep the key to itself
 * passes it per run instead (`--play-key` / AABIFY_PLAY_KEY).
 *
 *   aabify play credentials set chave.json      (or - to read it from stdin)
 *   aabify play credentials show [--json]
 *   aabify play credentials test --package com.empresa.app
 *   aabify play credentials delete
 */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { PLAY_LIMITS, type PlayCredentialsMetadata } from '@aabify/shared/play';
import { EXIT_OK, usageError } from '../api/errors.js';
import { expectRecord, formatDate, str, unexpected } from '../api/types.js';
import { withAccountSession } from '../accountSession.js';
import { requireToken, runRemote, withRemoteOptions, type RemoteContext, type RemoteFlags } from '../remote.js';
import { formatRows } from '../format.js';

function readCredentials(body: unknown): PlayCredentialsMetadata {
  const c = expectRecord(expectRecord(body, 'credentials').credentials, 'credentials');
  if (typeof c.clientEmail !== 'string') throw unexpected('credentials', body);
  return c as unknown as PlayCredentialsMetadata;
}

function credentialLines(c: PlayCredentialsMetadata): string[] {
  return [
    'Conta de serviço do Google Play cadastrada:',
    ...formatRows([
      ['E-mail', c.clientEmail],
      ['Projeto', c.projectId ?? '—'],
      ['Enviada em', formatDate(c.updatedAt) ?? c.updatedAt],
      ...(c.lastTestedAt ? ([['Último teste', `${formatDate(c.lastTestedAt) ?? c.lastTestedAt} (${c.lastTestedPackage ?? '?'})`]] as const) : []),
    ]),
  ];
}

async function keyFile(file: string): Promise<string> {
  let text: string;
  try {
    text = file === '-' ? await new Promise<string>((resolve, reject) => {
      let data = '';
      process.stdin.setEncoding('utf8').on('data', (s: string) => (data += s)).on('end', () => resolve(data)).on('error', reject);
    }) : await readFile(file, 'utf8');
  } catch {
    throw usageError(`Arquivo não encontrado: ${file}`, 'FILE_NOT_FOUND');
  }
  if (text.length === 0 || text.length > PLAY_LIMITS.keyMaxBytes) throw usageError(`A chave deve ter entre 1 byte e ${PLAY_LIMITS.keyMaxBytes / 1024} KB.`, 'INVALID_KEY_FILE');
  return text;
}

async function runSet(ctx: RemoteContext, file: string): Promise<typeof EXIT_OK> {
  const key = await keyFile(file);
  // Replacing the account's key takes its password: an API token may not (accountSession.ts).
  const body = await withAccountSession(ctx, (session) => ctx.api.json('PUT', '/account/play-credentials', { token: session, body: { key } }), {
    stdinFree: file !== '-',
  });
  const credentials = readCredentials(body);
  ctx.output.result({ credentials }, [str(expectRecord(body, 'credentials').message) ?? 'Credenciais salvas.', ...credentialLines(credentials)]);
  return EXIT_OK;
}

async function runShow(ctx: RemoteContext): Promise<typeof EXIT_OK> {
  requireToken(ctx.connection);
  const body = await ctx.api.json('GET', '/account/play-credentials');
  // No key is an empty state, not a failure: the server answers `credentials: null`.
  if (expectRecord(body, 'credentials').credentials === null) {
    ctx.output.result({ credentials: null }, 'Nenhuma chave do Google Play cadastrada na conta. Envie uma com: aabify play credentials set <arquivo.json>');
    return EXIT_OK;
  }
  const credentials = readCredentials(body);
  ctx.output.result({ credentials }, credentialLines(credentials));
  return EXIT_OK;
}

async function runTest(ctx: RemoteContext, packageName: string | undefined): Promise<typeof EXIT_OK> {
  if (!packageName) throw usageError('Informe o app com --package com.empresa.app.', 'MISSING_PACKAGE');
  requireToken(ctx.connection);
  const body = await ctx.api.json('POST', '/account/play-credentials/test', { body: { packageName } });
  const credentials = readCredentials(body);
  ctx.output.result({ packageName, credentials }, str(expectRecord(body, 'test').message) ?? 'Conexão com o Google Play funcionando.');
  return EXIT_OK;
}

async function runDelete(ctx: RemoteContext): Promise<typeof EXIT_OK> {
  await withAccountSession(ctx, (session) => ctx.api.json('DELETE', '/account/play-credentials', { token: session }));
  ctx.output.result({ deleted: true }, 'Credenciais do Google Play removidas da conta.');
  return EXIT_OK;
}

export function register(program: Command): Command {
  const play = program.command('play').description('Google Play: a chave da conta de serviço guardada na conta (veja docs/play.md)');
  const credentials = play.command('credentials').description('cadastra, mostra, testa ou remove a chave da conta de serviço');
  withRemoteOptions(credentials.command('set').argument('<arquivo>', 'o JSON da chave (ou - para ler do stdin)').description('guarda a chave no servidor, criptografada (substitui a anterior)'))
    .action((file: string, flags: RemoteFlags) => runRemote(flags, (ctx) => runSet(ctx, file)));
  withRemoteOptions(credentials.command('show').description('mostra o e-mail e o projeto da conta de serviço cadastrada'))
    .action((flags: RemoteFlags) => runRemote(flags, (ctx) => runShow(ctx)));
  withRemoteOptions(credentials.command('test').description('Testar conexão: obtém um token e abre e descarta uma edição do app').option('--package <nome>', 'o app (ex.: com.empresa.app)'))
    .action((flags: RemoteFlags & { package?: string }) => runRemote(flags, (ctx) => runTest(ctx, flags.package)));
  withRemoteOptions(credentials.command('delete').description('remove a chave da conta'))
    .action((flags: RemoteFlags) => runRemote(flags, (ctx) => runDelete(ctx)));
  return play;
}
