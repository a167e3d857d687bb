/**
 * The request schemas of Google Play publishing (play.ts), kept apart from its limits, labels and
 * messages, which the engine and the CLI import at start without building schemas (index.ts).
 */
import { array, number, object, string, type InferType } from 'yup';
import { PLAY_LIMITS, PLAY_MESSAGES, PLAY_PUBLISH_STATUSES, isPackageName } from './play.js';

/** Standard tracks or a closed-testing track's name as Play Console shows it. */
const TRACK_NAME = /^[A-Za-z0-9][A-Za-z0-9 _.:-]*$/;
/** BCP-47 as Play writes it: pt-BR, en-US, es-419, fr. */
const LANGUAGE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/** PUT /api/account/play-credentials: the key file's text. */
export const playCredentialsSchema = object({
  key: string()
    .required(PLAY_MESSAGES.keyRequired)
    .test('size', PLAY_MESSAGES.keyTooLarge, (v) => v === undefined || v.length <= PLAY_LIMITS.keyMaxBytes),
});
export type PlayCredentialsUpload = InferType<typeof playCredentialsSchema>;

/** POST /api/account/play-credentials/test. */
export const playTestSchema = object({
  packageName: string()
    .trim()
    .required(PLAY_MESSAGES.packageNameRequired)
    .test('package', PLAY_MESSAGES.packageNameInvalid, (v) => v === undefined || isPackageName(v)),
});

const releaseNoteSchema = object({
  language: string().trim().required(PLAY_MESSAGES.notesLanguageInvalid).matches(LANGUAGE, PLAY_MESSAGES.notesLanguageInvalid),
  text: string().trim().required().max(PLAY_LIMITS.releaseNotesMax, PLAY_MESSAGES.notesTooLong),
});

/** The release a publication creates; shared by the API, the dashboard's form and the CLI. */
export const playReleaseSchema = object({
  track: string()
    .trim()
    .required(PLAY_MESSAGES.trackRequired)
    .max(PLAY_LIMITS.trackNameMax, PLAY_MESSAGES.trackInvalid)
    .matches(TRACK_NAME, PLAY_MESSAGES.trackInvalid),
  releaseStatus: string().oneOf([...PLAY_PUBLISH_STATUSES], PLAY_MESSAGES.statusInvalid).default('draft'),
  /** Percent of users (inProgress only), 0 < x < 100. */
  rolloutPercent: number()
    .typeError(PLAY_MESSAGES.rolloutRange)
    .optional()
    .moreThan(0, PLAY_MESSAGES.rolloutRange)
    .lessThan(100, PLAY_MESSAGES.rolloutRange)
    .when('releaseStatus', {
      is: 'inProgress',
      then: (s) => s.required(PLAY_MESSAGES.rolloutRequired),
      otherwise: (s) => s.test('only', PLAY_MESSAGES.rolloutOnlyInProgress, (v) => v === undefined),
    }),
  releaseName: string().trim().max(PLAY_LIMITS.releaseNameMax, PLAY_MESSAGES.releaseNameTooLong).optional(),
  releaseNotes: array(releaseNoteSchema).max(PLAY_LIMITS.releaseNotesLanguagesMax, PLAY_MESSAGES.notesTooMany).optional(),
});
export type PlayReleaseRequest = InferType<typeof playReleaseSchema>;

/** POST /api/publications. */
export const publishRequestSchema = playReleaseSchema.shape({
  conversionId: string().trim().required(),
});
export type PublishRequest = InferType<typeof publishRequestSchema>;
