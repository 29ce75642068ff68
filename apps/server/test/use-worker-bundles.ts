// Every test file starts worker threads from the bundles global setup built for this run (test/global-setup.ts).
import { useWorkerBundles } from '../src/modules/analysis/engine/worker-client.js';

const directory = process.env.WORKER_BUNDLES_DIR;
if (directory) useWorkerBundles(directory);
