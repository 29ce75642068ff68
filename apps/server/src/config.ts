import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';

/** Every setting the server reads, all from environment variables (see README "Configuration"). */
export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  databaseUrl: string | undefined;
  s3:
    | { endpoint: string | undefined; region: string; bucket: string; accessKeyId?: string; secretAccessKey?: string }
    | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  maxUploadBytes: number;
  jwtSecret: string;
  logLevel: string;
  supportEmail: string;
  docsUrl: string;
  /** Serve the built SPA from this directory when it exists. */
  webDistDir: string | undefined;
  /** Fastify's trustProxy: false (default), true, a hop count, or addresses/CIDRs of the proxies in front. */
  trustProxy: boolean | number | string;
  /** Sign-ups allowed per client address per 15 minutes. */
  registrationsPerAddress: number;
  /** Run job workers inside this process. */
  runWorkers: boolean;
  /** Accept HTTP requests (false for `npm run worker`). */
  runHttp: boolean;
  /** Analysis segments this process works on at once (each one ffmpeg + one worker thread). */
  analysisWorkers: number;
  /** Longest analysis segment in seconds of video; long videos are cut into segments any worker can take. */
  analysisSegmentSeconds: number;
  /**
   * Frames a location-tracking piece tracks before its first to catch up with a single pass (ADR 027; at most
   * LOCATION_WARM_UP_FRAMES). Not an operator's setting: tests lower it to make pieces that must be tracked again.
   */
  locationWarmUpFrames: number;
  /**
   * How often a worker process looks for runs and videos whose jobs are gone; one found on two looks in a row
   * fails with a message (so within twice this).
   */
  jobWatchdogSeconds: number;
  /** Longest piece of a playback copy in seconds of video; pieces are encoded by any worker and joined. */
  playbackPieceSeconds: number;
  /** How long deleted projects, subjects, videos, runs and tracks stay restorable before the purge removes them. */
  trashDays: number;
  /** Stripe subscriptions; undefined (billing off, every project active) unless STRIPE_SECRET_KEY is set. */
  billing: BillingConfig | undefined;
}

export interface BillingConfig {
  secretKey: string;
  webhookSecret: string;
  /** The Stripe price id of the Pro plan. */
  priceProId: string;
  /** Send the SDK's calls to this base URL instead of api.stripe.com (a Stripe-compatible server in tests). */
  apiUrl: URL | undefined;
}

const GIB = 1024 ** 3;

function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

function positiveNumber(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}

function nonNegativeNumber(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number of 0 or more, got "${raw}"`);
  return value;
}

/** Behind a proxy, client addresses (used by rate limits) come from X-Forwarded-For only as far as it is trusted. */
function parseTrustProxy(raw: string | undefined): boolean | number | string {
  if (!raw || raw === 'false') return false;
  if (raw === 'true') return true;
  return /^\d+$/.test(raw) ? Number(raw) : raw;
}

/** Billing is on when a Stripe secret key is set; then the webhook secret and the Pro price must be set too. */
function parseBilling(env: NodeJS.ProcessEnv): BillingConfig | undefined {
  const secretKey = env.STRIPE_SECRET_KEY;
  if (!secretKey) return undefined;
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET;
  const priceProId = env.STRIPE_PRICE_PRO;
  if (!webhookSecret) throw new Error('STRIPE_WEBHOOK_SECRET must be set when STRIPE_SECRET_KEY is');
  if (!priceProId) throw new Error('STRIPE_PRICE_PRO must be set when STRIPE_SECRET_KEY is');
  let apiUrl: URL | undefined;
  if (env.STRIPE_API_URL) {
    apiUrl = URL.canParse(env.STRIPE_API_URL) ? new URL(env.STRIPE_API_URL) : undefined;
    if (!apiUrl || !['http:', 'https:'].includes(apiUrl.protocol)) {
      throw new Error(`STRIPE_API_URL must be an http(s) URL, got "${env.STRIPE_API_URL}"`);
    }
  }
  return { secretKey, webhookSecret, priceProId, apiUrl };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const port = positiveInt('PORT', env.PORT, 8000);
  const dataDir = path.resolve(overrides.dataDir ?? env.DATA_DIR ?? './data');
  mkdirSync(dataDir, { recursive: true });
  const s3Bucket = env.S3_BUCKET;
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    databaseUrl: env.DATABASE_URL || undefined,
    s3: s3Bucket
      ? {
          endpoint: env.S3_ENDPOINT || undefined,
          region: env.S3_REGION || 'us-east-1',
          bucket: s3Bucket,
          accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
        }
      : undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Video Analysis <no-reply@localhost>',
    maxUploadBytes: positiveInt('MAX_UPLOAD_BYTES', env.MAX_UPLOAD_BYTES, 20 * GIB),
    jwtSecret: env.JWT_SECRET || readOrCreateSecret(dataDir),
    logLevel: env.LOG_LEVEL || 'info',
    supportEmail: env.SUPPORT_EMAIL || 'support@localhost',
    docsUrl: env.DOCS_URL || '/api/docs/',
    webDistDir: undefined,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    registrationsPerAddress: positiveInt('REGISTRATIONS_PER_ADDRESS', env.REGISTRATIONS_PER_ADDRESS, 30),
    runWorkers: true,
    runHttp: true,
    analysisWorkers: positiveInt('ANALYSIS_WORKERS', env.ANALYSIS_WORKERS, availableParallelism()),
    analysisSegmentSeconds: positiveNumber('ANALYSIS_SEGMENT_SECONDS', env.ANALYSIS_SEGMENT_SECONDS, 300),
    locationWarmUpFrames: 600,
    jobWatchdogSeconds: positiveNumber('JOB_WATCHDOG_SECONDS', env.JOB_WATCHDOG_SECONDS, 30),
    playbackPieceSeconds: positiveNumber('PLAYBACK_PIECE_SECONDS', env.PLAYBACK_PIECE_SECONDS, 300),
    trashDays: nonNegativeNumber('TRASH_DAYS', env.TRASH_DAYS, 30),
    billing: parseBilling(env),
    ...overrides,
  };
}
