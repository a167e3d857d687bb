/**
 * `aabify publish CONVERSION_ID|FILE.aab --track TRACK`: sends a bundle to a Google Play track
 * (docs/play.md).
 *   - CONVERSION_ID: through the server, with the key stored in the account; the publication is
 *     recorded in the conversion's history. With --play-key, the AAB is downloaded and published
 *     from this machine instead (the key never reaches the server).
 *   - FILE.aab with --play-key (or AABIFY_PLAY_KEY): straight from the pipeline, no aabify server
 *     at all; the app is the bundle's own package (its base manifest), --package only confirms it.
 */
import { basename, join } from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { Command } from 'commander';
import { isPackageName } from '@aabify/shared/play';
import { isRecord } from '@aabify/shared/json';
import { downloadAab } from '../aabDownload.js';
import { EXIT_OK, usageError } from '../api/errors.js';
import { isServerId } from '../api/ids.js';
import { getConversion } from '../follow.js';
import { str } from '../api/types.js';
import { Output } from '../output.js';
import { requireToken, runRemote, withRemoteOptions, type RemoteContext, type RemoteFlags } from '../remote.js';
import { playKeyText, publicationLine, publishDirect, publishThroughServer, releaseFrom, withReleaseOptions, type PublicationResult, type ReleaseFlags } from '../publishing.js';

export interface PublishFlags extends RemoteFlags, ReleaseFlags {
  track?: string;
  package?: string;
}

/** A conversion's AAB, published from this machine with the per-run key. */
async function publishConversionDirect(ctx: RemoteContext, conversionId: string, keyText: string, flags: PublishFlags, track: string): Promise<PublicationResult> {
  const conversion = await getConversion(ctx.api, conversionId);
  const report = conversion.raw.report;
  const packageName = flags.package ?? (isRecord(report) ? str(report.packageName) : undefined);
  if (!packageName) throw usageError('O relatório da conversão não tem o nome do pacote: informe --package.', 'MISSING_PACKAGE');
  const dir = await mkdtemp(join(tmpdir(), 'aabify-publish-'));
  try {
    const saved = await downloadAab(ctx.api, ctx.output, conversionId, join(dir, 'app.aab'), true);
    return { ...(await publishDirect(ctx.output, saved.path, packageName, keyText, await releaseFrom(track, flags))), conversionId };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function runPublish(target: string, flags: PublishFlags): Promise<void> {
  const track = flags.track;
  const isFile = /\.aab$/i.test(target);
  if (!isFile) {
    await runRemote(flags, async (ctx) => {
      if (!track) throw usageError('Informe a faixa com --track (internal, alpha, beta, production ou uma faixa fechada).', 'MISSING_TRACK');
      if (!isServerId(target)) throw usageError(`Informe o id de uma conversão ou um arquivo .aab (recebido ${target}).`, 'INVALID_TARGET');
      const release = await releaseFrom(track, flags);
      requireToken(ctx.connection);
      const key = await playKeyText(flags);
      const result = key ? await publishConversionDirect(ctx, target, key, flags, track) : await publishThroughServer(ctx, target, release);
      ctx.output.result({ publication: result, ...result }, publicationLine(result));
      return EXIT_OK;
    });
    return;
  }
  // A file: no server. runRemote gives the same output and exit-code handling; its connection is unused.
  const output = new Output({ json: flags.json, quiet: flags.quiet });
  try {
    if (!track) throw usageError('Informe a faixa com --track (internal, alpha, beta, production ou uma faixa fechada).', 'MISSING_TRACK');
    const release = await releaseFrom(track, flags);
    const key = await playKeyText(flags);
    if (!key) throw usageError(`Para publicar ${basename(target)} direto, passe a chave com --play-key ARQUIVO (ou AABIFY_PLAY_KEY).`, 'MISSING_PLAY_KEY');
    if (flags.package !== undefined && !isPackageName(flags.package)) throw usageError(`--package não é um nome de pacote válido (recebido ${flags.package}).`, 'INVALID_PACKAGE');
    // The engine only on this path: the CLI's start stays light.
    const { readBundleIdentity } = await import('@aabify/converter');
    const { packageName } = await readBundleIdentity(target);
    if (flags.package && flags.package !== packageName) {
      throw usageError(`O AAB é do pacote ${packageName}, não de ${flags.package}: confira o arquivo ou o --package.`, 'PACKAGE_MISMATCH');
    }
    const result = await publishDirect(output, target, packageName, key, release);
    output.result({ publication: result, ...result }, publicationLine(result));
    process.exitCode = EXIT_OK;
  } catch (e) {
    process.exitCode = output.failure(e);
  }
}

export function register(program: Command): Command {
  return withReleaseOptions(
    withRemoteOptions(
      program
        .command('publish')
        .argument('<alvo>', 'id de uma conversão concluída, ou um arquivo .aab (com --play-key)')
        .description('publica um AAB numa faixa do Google Play (veja docs/play.md)')
        .option('--track <faixa>', 'internal, alpha, beta, production ou o nome de uma faixa de teste fechado')
        .option('--package <nome>', 'confirma o app (para um arquivo .aab, o pacote vem do próprio AAB)'),
    ),
  ).action((target: string, flags: PublishFlags) => runPublish(target, flags));
}
