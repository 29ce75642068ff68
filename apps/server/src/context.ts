import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { BillingProvider } from './adapters/billing/billing.js';
import type { Mailer } from './adapters/mail/mailer.js';
import { OutboxMailer } from './adapters/mail/outbox-mailer.js';
import { resolveMediaBinaries } from './adapters/media/binaries.js';
import { FfmpegMedia } from './adapters/media/ffmpeg-media.js';
import type { Media } from './adapters/media/media.js';
import { LocalStorage } from './adapters/storage/local-storage.js';
import type { Storage } from './adapters/storage/storage.js';
import type { AppConfig } from './config.js';
import { type Database, type DatabaseHandle, openDatabase } from './db/client.js';
import { type AnyJobDefinition, JobQueue } from './jobs/job-queue.js';
import { localTempDir } from './lib/storage-keys.js';
import { TokenService } from './lib/tokens.js';

/** Everything a route, service or job handler needs, built once from configuration at start. */
export interface AppContext {
  config: AppConfig;
  logger: FastifyBaseLogger;
  database: DatabaseHandle;
  db: Database;
  storage: Storage;
  media: Media;
  mailer: Mailer;
  tokens: TokenService;
  jobs: JobQueue<AppContext>;
  /** Stripe when STRIPE_SECRET_KEY is set; null when billing is off (every project active). */
  billing: BillingProvider | null;
}

/**
 * Picks the adapters that the configuration asks for; the same code path for every deployment shape. The job
 * list comes from the caller (modules/job-registry.ts), so this file depends on adapters only.
 */
export async function createContext(
  config: AppConfig,
  logger: FastifyBaseLogger,
  options: { database?: DatabaseHandle; jobDefinitions: AnyJobDefinition<AppContext>[] },
): Promise<AppContext> {
  const database =
    options.database ??
    (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: path.join(config.dataDir, 'db') }));
  await database.migrate();
  // The S3, SMTP and Stripe adapters (and their SDKs) load only when configured: tens of MB a lab never needs.
  const storage: Storage = config.s3
    ? new (await import('./adapters/storage/s3-storage.js')).S3Storage({
        ...config.s3,
        tmpDir: localTempDir(config.dataDir),
      })
    : new LocalStorage(path.join(config.dataDir, 'files'));
  const media: Media = new FfmpegMedia(resolveMediaBinaries(config.dataDir));
  const mailer: Mailer = config.smtpUrl
    ? new (await import('./adapters/mail/smtp-mailer.js')).SmtpMailer(config.smtpUrl, config.mailFrom, logger)
    : new OutboxMailer(path.join(config.dataDir, 'outbox'), config.mailFrom, logger);
  const billing: BillingProvider | null = config.billing
    ? new (await import('./adapters/billing/stripe-billing.js')).StripeBilling(config.billing)
    : null;
  const jobs = JobQueue.open<AppContext>(database, options.jobDefinitions, logger);
  return {
    config,
    logger,
    database,
    db: database.db,
    storage,
    media,
    mailer,
    tokens: new TokenService(config.jwtSecret),
    jobs,
    billing,
  };
}

export async function closeContext(context: AppContext): Promise<void> {
  // Jobs that can run for minutes stop now and are retried later (their definitions' onStop); others finish.
  await context.jobs.stop();
  await context.mailer.close();
  await context.database.close();
}
