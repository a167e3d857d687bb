/**
 * Publishing to Google Play from the CLI (docs/play.md), shared by `aabify publish` and
 * `aabify convert --publish TRACK`: the release flags, and the two ways to publish —
 *   - through the server (the key stored in the account: `aabify play credentials set`): POST
 *     /api/publications, then the publication is followed until it ends;
 *   - directly from this machine with `--play-key` / AABIFY_PLAY_KEY (a key file or its JSON in a
 *     CI secret): nothing is stored server-side; the same code the server runs
 *     (@aabify/converter/play), loaded only when used.
 * A refusal is a CliError with Play's code and pt-BR message, exit 7 (the release), 8 (the
 * credentials), 5 (quota) or 6 (Google unreachable).
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { InvalidArgumentError, type Command } from 'commander';
import { PLAY_PUBLISH_STATUSES, PUBLICATION_STEP_LABELS, type ApiPublication, type PlayPublishStatus, type ReleaseNote } from '@aabify/shared/play';
import { isRecord } from '@aabify/shared/json';
import { CliError, EXIT_FAILED, usageError } from './api/errors.js';
import { serverId } from './api/ids.js';
import { expectRecord, unexpected } from './api/types.js';
import { playExitCode } from './exitCodes.js';
import type { Output } from './output.js';
import type { RemoteContext } from './remote.js';

export interface ReleaseFlags {
  releaseStatus?: string;
  rollout?: number;
  releaseName?: string;
  releaseNotes?: string[];
  playKey?: string;
}

export interface Release {
  track: string;
  releaseStatus: PlayPublishStatus;
  rolloutPercent?: number;
  releaseName?: string;
  releaseNotes?: ReleaseNote[];
}

/** What `publish` and `convert --publish` print (in `--json` under `publication`). */
export interface PublicationResult {
  mode: 'server' | 'direct';
  publicationId?: string;
  conversionId?: string;
  packageName: string;
  track: string;
  releaseStatus: string;
  versionCode: number;
  editId: string | null;
  status: 'completed';
}

function collectNotes(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

function parsePercent(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n)) throw new InvalidArgumentError('use um número entre 0 e 100, por exemplo 10.');
  return n;
}

/** The release flags of `publish` and `convert --publish`. */
export function withReleaseOptions(command: Command): Command {
  return command
    .option('--release-status <status>', `status da versão na faixa: ${PLAY_PUBLISH_STATUSES.join(', ')} (padrão draft)`)
    .option('--rollout <percent>', 'com --release-status inProgress: porcentagem do lançamento gradual', parsePercent)
    .option('--release-name <nome>', 'nome da versão no Play Console')
    .option('--release-notes <[idioma:]texto>', 'notas da versão ("O que há de novo"), pt-BR por padrão; repita para outros idiomas (en-US:Bug fixes)', collectNotes)
    .option('--play-key <arquivo|json>', 'chave da conta de serviço para publicar direto desta máquina, sem guardá-la no servidor (ou AABIFY_PLAY_KEY)');
}

/** `[lang:]text` → a release note (pt-BR when no language is given). */
export function parseNote(value: string): ReleaseNote {
  const m = /^([a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*):(.*)$/s.exec(value);
  return m ? { language: m[1]!, text: m[2]!.trim() } : { language: 'pt-BR', text: value.trim() };
}

/**
 * The flags checked with the shared schema (the server's and the dashboard's rules), loaded here
 * rather than imported: every command would build the schemas at start otherwise.
 */
export async function releaseFrom(track: string, flags: ReleaseFlags): Promise<Release> {
  const [{ playReleaseSchema }, { ValidationError }] = await Promise.all([import('@aabify/shared/playSchemas'), import('yup')]);
  const candidate = {
    track,
    releaseStatus: flags.releaseStatus ?? 'draft',
    ...(flags.rollout !== undefined ? { rolloutPercent: flags.rollout } : {}),
    ...(flags.releaseName !== undefined ? { releaseName: flags.releaseName } : {}),
    ...(flags.releaseNotes?.length ? { releaseNotes: flags.releaseNotes.map(parseNote) } : {}),
  };
  try {
    return playReleaseSchema.validateSync(candidate, { abortEarly: true, stripUnknown: true }) as Release;
  } catch (e) {
    if (e instanceof ValidationError) throw usageError(e.errors[0] ?? 'Versão inválida.', 'INVALID_RELEASE');
    throw e;
  }
}

/** `--play-key` or AABIFY_PLAY_KEY: the key's JSON text, or a file holding it. */
export async function playKeyText(flags: ReleaseFlags, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const source = flags.playKey !== undefined ? '--play-key' : 'AABIFY_PLAY_KEY';
  const spec = flags.playKey ?? (env.AABIFY_PLAY_KEY || undefined);
  if (spec === undefined) return undefined;
  if (spec.trimStart().startsWith('{')) return spec;
  try {
    return await readFile(spec, 'utf8');
  } catch {
    // The value may be the secret itself (base64, a pasted key): it is never repeated.
    throw usageError(`${source} não é um arquivo existente nem o JSON de uma chave de conta de serviço do Google Play (o valor não é mostrado).`, 'PLAY_KEY_NOT_FOUND');
  }
}

function playFailure(code: string, message: string, doc: Record<string, unknown>, detail?: string): CliError {
  return new CliError(code, message, playExitCode(code) ?? EXIT_FAILED, { doc, ...(detail ? { detail } : {}) });
}

/** Publishes a local AAB straight to Google Play with the given key (no aabify server involved). */
export async function publishDirect(output: Output, file: string, packageName: string, keyText: string, release: Release): Promise<PublicationResult> {
  const play = await import('@aabify/converter/play');
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch {
    throw usageError(`Arquivo não encontrado: ${file}`, 'FILE_NOT_FOUND');
  }
  const doc = { packageName, track: release.track };
  let key;
  try {
    key = play.parseServiceAccountKey(keyText);
  } catch (e) {
    if (play.isPlayError(e)) throw playFailure(e.code, e.message, doc);
    throw e;
  }
  output.info(`Publicando ${packageName} na faixa ${release.track} do Google Play (direto desta máquina, conta ${key.clientEmail}).`);
  const progress = output.progress('Enviando ao Google Play', size);
  try {
    const result = await play.publishBundle({
      key,
      packageName,
      bundle: { size, open: () => createReadStream(file, { highWaterMark: 1024 * 1024 }) },
      release: {
        track: release.track,
        status: release.releaseStatus,
        ...(release.rolloutPercent !== undefined ? { rolloutPercent: release.rolloutPercent } : {}),
        ...(release.releaseName ? { name: release.releaseName } : {}),
        ...(release.releaseNotes ? { notes: release.releaseNotes } : {}),
      },
      endpoints: play.playEndpointsFromEnv(),
      onProgress: (step, percent) => {
        if (step === 'upload') progress.update(Math.round((size * Math.max(0, percent - 12)) / 73));
      },
      onLog: (level, message) => {
        if (level === 'error' || level === 'warning') output.warn(message);
        else if (!message.startsWith(PUBLICATION_STEP_LABELS.upload)) output.info(message);
      },
    });
    return { mode: 'direct', packageName, track: result.track, releaseStatus: result.releaseStatus, versionCode: result.versionCode, editId: result.editId, status: 'completed' };
  } catch (e) {
    if (play.isPlayError(e)) throw playFailure(e.code, e.message, doc, e.detail);
    throw e;
  } finally {
    progress.finish();
  }
}

function readPublication(body: unknown): ApiPublication {
  const p = expectRecord(body, 'publication').publication;
  if (!isRecord(p) || typeof p.id !== 'string' || typeof p.status !== 'string') throw unexpected('publication', body);
  serverId(p.id, 'publicação');
  return p as unknown as ApiPublication;
}

/** POST /api/publications, then the publication followed (its logs printed) until it ends. */
export async function publishThroughServer(ctx: RemoteContext, conversionId: string, release: Release): Promise<PublicationResult> {
  const { api, output } = ctx;
  const created = readPublication(await api.json('POST', '/publications', { body: { conversionId, ...release } }));
  output.info(`Publicação ${created.id} na fila: ${created.packageName}, faixa ${created.track} (${created.releaseStatus}).`);
  const interval = Math.max(100, Number(process.env.AABIFY_POLL_INTERVAL) || 1000);
  const shown = new Set<string>();
  for (;;) {
    const body = await api.json('GET', `/publications/${created.id}`);
    const p = readPublication(body);
    const logs = isRecord(body) && Array.isArray(body.logs) ? body.logs : [];
    for (const l of logs) {
      if (!isRecord(l) || typeof l.id !== 'string' || shown.has(l.id) || typeof l.message !== 'string') continue;
      shown.add(l.id);
      if (l.level === 'error' || l.level === 'warning') output.warn(l.message);
      else output.info(l.message);
    }
    if (p.status === 'completed') {
      return { mode: 'server', publicationId: p.id, conversionId, packageName: p.packageName, track: p.track, releaseStatus: p.releaseStatus, versionCode: p.versionCode ?? 0, editId: p.editId, status: 'completed' };
    }
    if (p.status === 'failed') {
      throw playFailure(p.errorCode ?? 'PUBLICATION_FAILED', p.error ?? 'A publicação falhou.', { publicationId: p.id, conversionId, track: p.track });
    }
    await sleep(interval);
  }
}

export function publicationLine(r: PublicationResult): string {
  return `Publicado no Google Play: ${r.packageName}, faixa ${r.track} (${r.releaseStatus}), versionCode ${r.versionCode}.`;
}

/**
 * The app's highest versionCode on Google Play (undefined: none yet), read with a key given to
 * this run — an edit opened, read and deleted; Play's refusals as for publishing (exit 7 or 8…).
 */
export async function highestVersionCodeWithKey(keyText: string, packageName: string): Promise<number | undefined> {
  const play = await import('@aabify/converter/play');
  const doc = { packageName };
  try {
    return await play.highestVersionCodeOnPlay(play.parseServiceAccountKey(keyText), packageName, play.playEndpointsFromEnv());
  } catch (e) {
    if (play.isPlayError(e)) throw playFailure(e.code, e.message, doc, e.detail);
    throw e;
  }
}
