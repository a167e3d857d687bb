/**
 * Publishing to Google Play, shared by the server's publication job and the CLI's direct
 * `aabify publish FILE.aab --play-key` (docs/play.md). No server code here: a key, a bundle
 * stream, a release in; a PlayResult or a PlayError out.
 */
export { parseServiceAccountKey, serviceAccountJson, type ServiceAccountKey } from './serviceAccount.js';
export { PlayError, isPlayError, playErrorFrom, googleErrorFacts, type PlayStage } from './errors.js';
export { playEndpointsFromEnv, tokenUrlFor, apiBaseFor, isEndpointUrl, ANDROID_PUBLISHER_SCOPE, GOOGLE_TOKEN_URL, GOOGLE_PLAY_API_URL, type PlayEndpoints } from './endpoints.js';
export { signAssertion } from './jwt.js';
export { PlayClient, UPLOAD_CHUNK_UNIT, DEFAULT_UPLOAD_CHUNK_BYTES, type PlayBundle, type BundleSource, type TrackRelease } from './client.js';
export { highestVersionCodeOnPlay, publishBundle, testEditAccess, trackRelease, type PlayRelease, type PublishInput, type PublishResult, type PublishHooks, type PublishLogLevel } from './publish.js';
