/**
 * Password hashing with scrypt (memory-hard, in node:crypto). The stored string carries its
 * parameters and salt — `scrypt$ln=16,r=8,p=2$<salt>$<hash>` — so the cost can be changed
 * later: a hash made with other parameters is upgraded at the next successful sign-in.
 *
 * The cost is one of the settings OWASP's Password Storage Cheat Sheet lists as giving the same
 * minimal defence, N=2^16, r=8, p=2: 64 MiB and about a quarter to half a second per check on
 * one core (OpenSSL runs the p lanes one after the other in the same memory). Its first setting,
 * N=2^17 with p=1, costs the same CPU with twice the memory: 128 MiB per check, held by a server
 * that is converting at the same time (docs/security.md). Hashes made with it (accounts created
 * before) still verify, and are upgraded at their next sign-in. Checks run on libuv's thread
 * pool, at most DERIVATIONS_AT_ONCE at a time (the others wait their turn); the sign-in limits
 * bound how many an attacker can start.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { availableParallelism } from 'node:os';

export interface ScryptParams {
  /** log2 of the CPU/memory cost N. */
  ln: number;
  r: number;
  p: number;
}

export const CURRENT_PARAMS: ScryptParams = { ln: 16, r: 8, p: 2 };

let activeParams: ScryptParams = CURRENT_PARAMS;
let kdfRuns = 0;

/**
 * The parameters new hashes use. Production never calls this; the test server passes a lower
 * cost explicitly (StartOptions.passwordParams) so hundreds of sign-ins stay fast. No
 * environment variable can lower it.
 */
export function usePasswordParams(params: ScryptParams = CURRENT_PARAMS): void {
  activeParams = params;
}

/** How many scrypt derivations this process ran (tests count password checks with it). */
export function passwordKdfRuns(): number {
  return kdfRuns;
}
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

/**
 * Derivations running at once. Each is CPU-bound, takes 64 MiB while it runs and holds one of
 * libuv's pool threads (4 unless UV_THREADPOOL_SIZE says otherwise), which the file reads and
 * writes of uploads and downloads need too: more at once than the cores finish no sooner, only
 * add memory (twenty sign-ups at once peaked the server 130–250 MB higher, bench/README.md) and
 * leave file work waiting. So: the cores, keeping two pool threads for everything else.
 */
export const DERIVATIONS_AT_ONCE = Math.max(1, Math.min(availableParallelism(), Number(process.env.UV_THREADPOOL_SIZE || 4) - 2));

let derivationsRunning = 0;
let derivationsPeak = 0;
const waitingForDerivation: Array<() => void> = [];

/** The most derivations this process ran at the same moment (tests check the bound with it). */
export function passwordKdfPeak(): number {
  return derivationsPeak;
}

async function derivationSlot<T>(work: () => Promise<T>): Promise<T> {
  // A finished derivation hands its slot to the next waiting one directly.
  if (derivationsRunning >= DERIVATIONS_AT_ONCE) await new Promise<void>((resolve) => waitingForDerivation.push(resolve));
  else derivationsRunning++;
  derivationsPeak = Math.max(derivationsPeak, derivationsRunning);
  try {
    return await work();
  } finally {
    const next = waitingForDerivation.shift();
    if (next) next();
    else derivationsRunning--;
  }
}

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const N = 2 ** params.ln;
  // scrypt needs 128·N·r bytes (and 128·r per lane, p ≤ 16); Node refuses more than maxmem (32 MiB by default).
  const options: ScryptOptions = { N, r: params.r, p: params.p, maxmem: 128 * N * params.r + 1024 * 1024 };
  kdfRuns++;
  return derivationSlot(
    () =>
      new Promise((resolve, reject) => {
        scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key)));
      }),
  );
}

export async function hashPassword(password: string, params: ScryptParams = activeParams): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, params);
  return `scrypt$ln=${params.ln},r=${params.r},p=${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

interface ParsedHash {
  params: ScryptParams;
  salt: Buffer;
  key: Buffer;
}

function parseHash(stored: string): ParsedHash | undefined {
  const m = /^scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/.exec(stored);
  if (!m) return undefined;
  const params = { ln: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  // Refuse parameters that would make one check cost more than the current ones by far.
  if (params.ln < 1 || params.ln > 20 || params.r < 1 || params.p < 1 || params.p > 16) return undefined;
  return { params, salt: Buffer.from(m[4], 'base64'), key: Buffer.from(m[5], 'base64') };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.params);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

/** True when the hash was made with other parameters than the current ones. */
export function needsRehash(stored: string): boolean {
  const parsed = parseHash(stored);
  if (!parsed) return true;
  const { ln, r, p } = parsed.params;
  return ln !== activeParams.ln || r !== activeParams.r || p !== activeParams.p;
}

let dummyHash: { params: ScryptParams; hash: Promise<string> } | undefined;

/**
 * Spends the time of one password check against nothing: sign-in with an unknown email takes
 * as long as with a wrong password, so timing does not tell which emails exist.
 */
export async function burnPasswordCheck(password: string): Promise<false> {
  if (dummyHash?.params !== activeParams) dummyHash = { params: activeParams, hash: hashPassword(randomBytes(12).toString('hex')) };
  await verifyPassword(password, await dummyHash.hash);
  return false;
}
