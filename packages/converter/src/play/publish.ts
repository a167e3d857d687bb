/**
 * One publication, start to end, as the server's job and the CLI's direct `publish` run it:
 * token → edits.insert → bundles.upload → tracks.update → edits.commit. Any failure after the
 * edit was opened deletes the edit (nothing half-done stays in Play Console) and is thrown as
 * a PlayError; progress and log lines go to the caller (live events, a terminal).
 */
import type { PlayPublishStatus, PublicationStep, ReleaseNote } from '@aabify/shared/play';
import { PLAY_MESSAGES, PUBLICATION_STEP_LABELS } from '@aabify/shared/play';
import { PlayClient, type BundleSource, type PlayBundle, type TrackRelease } from './client.js';
import type { PlayEndpoints } from './endpoints.js';
import { isPlayError } from './errors.js';
import type { ServiceAccountKey } from './serviceAccount.js';

export interface PlayRelease {
  track: string;
  status: PlayPublishStatus;
  /** inProgress: percent of users, 0 < x < 100. */
  rolloutPercent?: number;
  name?: string;
  notes?: ReleaseNote[];
}

export type PublishLogLevel = 'info' | 'warning' | 'error' | 'success';

export interface PublishHooks {
  /** Stage and overall percent (0–100). */
  onProgress?(step: PublicationStep, progress: number): void;
  onLog?(level: PublishLogLevel, message: string, step: PublicationStep): void;
  /** The edit was opened (the server records its id). */
  onEdit?(editId: string): void;
}

export interface PublishInput extends PublishHooks {
  key: ServiceAccountKey;
  packageName: string;
  bundle: BundleSource;
  release: PlayRelease;
  endpoints?: PlayEndpoints;
  chunkBytes?: number;
  signal?: AbortSignal;
}

export interface PublishResult {
  packageName: string;
  editId: string;
  track: string;
  releaseStatus: PlayPublishStatus;
  versionCode: number;
  bundle: PlayBundle;
  /** What tracks.update and edits.commit answered. */
  trackResponse: Record<string, unknown>;
  commitResponse: Record<string, unknown>;
}

/** The TrackRelease a release asks for (versionCodes are strings in the API: int64). */
export function trackRelease(release: PlayRelease, versionCode: number): TrackRelease {
  return {
    ...(release.name ? { name: release.name } : {}),
    versionCodes: [String(versionCode)],
    status: release.status,
    ...(release.status === 'inProgress' && release.rolloutPercent !== undefined ? { userFraction: Math.round(release.rolloutPercent * 100) / 10_000 } : {}),
    ...(release.notes && release.notes.length > 0 ? { releaseNotes: release.notes } : {}),
  };
}

const UPLOAD_FROM = 12;
const UPLOAD_TO = 85;

export async function publishBundle(input: PublishInput): Promise<PublishResult> {
  const { packageName, release } = input;
  const client = new PlayClient(input.key, input.endpoints, { signal: input.signal });
  const step = (s: PublicationStep, progress: number, message?: string) => {
    input.onProgress?.(s, progress);
    input.onLog?.('info', message ?? PUBLICATION_STEP_LABELS[s], s);
  };
  let editId: string | undefined;
  try {
    step('token', 3, `${PUBLICATION_STEP_LABELS.token} como ${input.key.clientEmail}`);
    await client.accessToken();
    step('edit', 8, `${PUBLICATION_STEP_LABELS.edit} (${packageName})`);
    editId = (await client.insertEdit(packageName)).id;
    input.onEdit?.(editId);
    step('upload', UPLOAD_FROM, `${PUBLICATION_STEP_LABELS.upload} (${input.bundle.size} bytes)`);
    const bundle = await client.uploadBundle(packageName, editId, input.bundle, {
      chunkBytes: input.chunkBytes,
      onProgress: (bytes) => input.onProgress?.('upload', Math.round(UPLOAD_FROM + ((UPLOAD_TO - UPLOAD_FROM) * bytes) / Math.max(1, input.bundle.size))),
    });
    input.onLog?.('info', `Bundle recebido pelo Google Play: versionCode ${bundle.versionCode}, SHA-256 ${bundle.sha256}`, 'upload');
    step('track', 90, `${PUBLICATION_STEP_LABELS.track} ${release.track} (${release.status})`);
    const trackResponse = await client.updateTrack(packageName, editId, release.track, trackRelease(release, bundle.versionCode));
    step('commit', 95);
    const commitResponse = await client.commitEdit(packageName, editId);
    input.onProgress?.('done', 100);
    input.onLog?.('success', PLAY_MESSAGES.published(release.track, bundle.versionCode), 'done');
    return { packageName, editId, track: release.track, releaseStatus: release.status, versionCode: bundle.versionCode, bundle, trackResponse, commitResponse };
  } catch (err) {
    // Google's own words go to the log; the error carries ours.
    if (isPlayError(err) && err.detail) input.onLog?.('error', `Google Play: ${err.detail}`, stageStep(err.stage));
    if (editId) {
      try {
        await client.deleteEdit(packageName, editId);
        input.onLog?.('warning', PLAY_MESSAGES.editDeleted, 'edit');
      } catch (e) {
        input.onLog?.('warning', `A edição ${editId} não pôde ser descartada (${isPlayError(e) ? (e.detail ?? e.code) : String(e)}); o Google a descarta sozinho em até 1 hora.`, 'edit');
      }
    }
    throw err;
  }
}

function stageStep(stage: string | undefined): PublicationStep {
  return stage === 'token' || stage === 'edit' || stage === 'upload' || stage === 'track' || stage === 'commit' ? stage : 'edit';
}

/**
 * 'Testar conexão': a token, then an edit opened and deleted at once — proof of edit access
 * to the app, and nothing more is read or changed.
 */
export async function testEditAccess(key: ServiceAccountKey, packageName: string, endpoints: PlayEndpoints = {}): Promise<{ editId: string }> {
  const client = new PlayClient(key, endpoints);
  await client.accessToken();
  const edit = await client.insertEdit(packageName);
  await client.deleteEdit(packageName, edit.id);
  return { editId: edit.id };
}

/**
 * The highest versionCode the app has on Google Play (bundles and APKs ever uploaded), or
 * undefined when it has none: an edit opened, read, and deleted — nothing changes on Play.
 */
export async function highestVersionCodeOnPlay(key: ServiceAccountKey, packageName: string, endpoints: PlayEndpoints = {}, signal?: AbortSignal): Promise<number | undefined> {
  const client = new PlayClient(key, endpoints, { signal });
  const edit = await client.insertEdit(packageName);
  try {
    const codes = await client.listVersionCodes(packageName, edit.id);
    return codes.length > 0 ? Math.max(...codes) : undefined;
  } finally {
    await client.deleteEdit(packageName, edit.id).catch(() => undefined); // Google drops an unused edit within an hour anyway
  }
}
