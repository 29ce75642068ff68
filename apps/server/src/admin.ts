/**
 * `npm run admin -- <command>`: what an operator does by hand, through the same services as the server.
 *   list-projects               every project with its plan, status, owner and subscription
 *   activate-project <uuid>     make a project active (an Institutional plan once its contract is signed)
 *   lock-project <uuid>         make a project read-only (its data is kept; activate-project unlocks it)
 * Settings come from the environment, as for `npm start` (DATA_DIR or DATABASE_URL).
 */
import { loadConfig } from './config.js';
import { closeContext, createContext } from './context.js';
import { createLogger } from './logger.js';
import { listProjectsForOperator, setProjectStatusByOperator } from './modules/billing/billing.service.js';
import { jobDefinitions } from './modules/job-registry.js';

const USAGE = `Usage: npm run admin -- <command>
  list-projects               every project with its plan, status, owner and subscription
  activate-project <uuid>     make a project active
  lock-project <uuid>         make a project read-only (data kept; activate-project unlocks it)`;

const day = (date: Date) => date.toISOString().slice(0, 10);

async function main(args: string[]): Promise<number> {
  const [command, uuid] = args;
  const commands = ['list-projects', 'activate-project', 'lock-project'];
  if (!command || !commands.includes(command) || (command !== 'list-projects' && !uuid)) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig(process.env);
  const context = await createContext(config, createLogger(process.env.LOG_LEVEL ?? 'warn'), { jobDefinitions });
  try {
    if (command === 'list-projects') {
      const rows = await listProjectsForOperator(context);
      if (rows.length === 0) console.log('No projects.');
      for (const row of rows) {
        const subscription = row.subscriptionStatus
          ? `subscription ${row.subscriptionStatus}${row.currentPeriodEnd ? ` until ${day(row.currentPeriodEnd)}` : ''}`
          : 'no subscription';
        const columns = [row.projectUuid, row.status.padEnd(6), row.plan.padEnd(13), row.ownerEmail, subscription];
        // A project in the trash is still listed (its subscription runs until the purge), marked as such.
        const trashed = row.deletedAt
          ? [`in trash since ${day(row.deletedAt)}${row.purgeAt ? `, purged ${day(row.purgeAt)}` : ''}`]
          : [];
        console.log([...columns, row.name, ...trashed].join('  '));
      }
      return 0;
    }
    const status = command === 'activate-project' ? 'active' : 'locked';
    const project = await setProjectStatusByOperator(context, uuid!, status);
    console.log(`${project.projectUuid} "${project.name}" (${project.plan}) is now ${project.status}.`);
    return 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  } finally {
    await closeContext(context);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
