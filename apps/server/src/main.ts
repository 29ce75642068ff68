import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { closeContext, createContext } from './context.js';
import { createLogger } from './logger.js';
import { warmUpAgreementWorker } from './modules/agreement/engine/agreement-worker-client.js';
import { warmUpAnalysisThreads } from './modules/analysis/engine/worker-client.js';
import { deletePendingFilesJob } from './modules/files/file-deletion.js';
import { jobDefinitions } from './modules/job-registry.js';
import { startJobWatchdog } from './modules/job-watchdog.js';
import { startTrashPurge } from './modules/trash/trash.purge.js';

/**
 * `node dist/main.js` serves the API (and the SPA when built) with job workers in the same process;
 * `--worker` runs job workers only, for the scaled shape.
 */
async function main() {
  const workerOnly = process.argv.includes('--worker');
  const config = loadConfig(process.env, {
    webDistDir: process.env.WEB_DIST_DIR,
    runHttp: !workerOnly,
    runWorkers: workerOnly || process.env.RUN_WORKERS !== 'false',
  });
  const logger = createLogger(config.logLevel);
  const context = await createContext(config, logger, { jobDefinitions });
  await context.jobs.start(config.runWorkers ? context : undefined);
  // Every process that runs jobs also fails, visibly, work whose jobs are gone.
  const watchdog = config.runWorkers ? startJobWatchdog(context) : undefined;
  // …and queue the trash's purge (items past TRASH_DAYS) now and every hour.
  const purge = config.runWorkers ? startTrashPurge(context) : undefined;
  // …and ready the threads of a run's pieces and its join now, kept warm, so no run pays their start (ADR 023).
  if (config.runWorkers) {
    warmUpAnalysisThreads(config.analysisWorkers + 1).catch((error: unknown) =>
      logger.warn({ err: error }, 'warming the analysis threads failed'),
    );
  }
  // Finish any file deletions a previous process could not complete.
  await context.jobs.send(deletePendingFilesJob, {}, { singletonKey: 'startup' });

  const app = config.runHttp ? await buildApp(context) : undefined;
  if (app) {
    await app.listen({ port: config.port, host: config.host });
    logger.info({ url: config.publicUrl, data: config.dataDir, database: context.database.kind }, 'server ready');
    // The agreement thread, started and compiled now rather than by the first comparison someone asks for.
    warmUpAgreementWorker().catch((error: unknown) =>
      logger.warn({ err: error }, 'warming the agreement thread failed'),
    );
  } else {
    logger.info('worker ready');
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: draining requests and jobs');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, 60_000);
    force.unref();
    try {
      watchdog?.stop();
      purge?.stop();
      await app?.close();
      await closeContext(context);
      logger.info('shutdown complete');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
