// The mixed load's generator, in its own process: `node --import tsx mixed-load.ts '<json options>'`. Virtual users
// each open one of three pages at random — fetching what the web app fetches for it, in parallel, over up to six
// keep-alive connections like a browser — then wait 0.5–1.5 s. Prints one JSON object with the figures.
import http from 'node:http';

interface Options {
  baseUrl: string;
  token: string;
  projectUuid: string;
  users: number;
  seconds: number;
}

const options = JSON.parse(process.argv[2] ?? '{}') as Options;
const p = `/api/projects/${options.projectUuid}`;
// Every project page: the project switcher's list and the active project (features/projects/hooks).
const layout = ['/api/projects/?page_size=100', `${p}/`];
// The first page of each, with the web app's query parameters (features/*/api.ts and the pages' components).
const pages: Record<string, string[]> = {
  dashboard: [...layout, `${p}/videos/?ordering=-created_at&page_size=5`, `${p}/analysis/?page_size=5`],
  subjects: [...layout, `${p}/subjects/?page=1&page_size=25&ordering=name`],
  'analysis-logs': [...layout, `${p}/subjects/?page_size=500&ordering=name`, `${p}/analysis/?page=1&page_size=25`],
};
const pageNames = Object.keys(pages);

function get(agent: http.Agent, url: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${options.baseUrl}${url}`,
      { agent, headers: { authorization: `Bearer ${options.token}` } },
      (response) => {
        response.resume();
        response.on('end', () => {
          if (response.statusCode !== 200) reject(new Error(`GET ${url} answered ${response.statusCode}`));
          else resolve(performance.now() - started);
        });
      },
    );
    request.on('error', reject);
  });
}

const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function main() {
  const warmupMs = 3000;
  const started = performance.now();
  const end = started + warmupMs + options.seconds * 1000;
  const latencies: number[] = [];
  const byPage: Record<string, { pageViews: number; latencies: number[] }> = {};
  for (const name of pageNames) byPage[name] = { pageViews: 0, latencies: [] };
  let pageViews = 0;

  async function user(index: number) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
    // Users arrive over the first second rather than all at once.
    await new Promise((r) => setTimeout(r, (index / options.users) * 1000));
    while (performance.now() < end) {
      const name = pageNames[Math.floor(Math.random() * pageNames.length)]!;
      const times = await Promise.all(pages[name]!.map((url) => get(agent, url)));
      if (performance.now() - started > warmupMs) {
        latencies.push(...times);
        byPage[name]!.latencies.push(...times);
        byPage[name]!.pageViews++;
        pageViews++;
      }
      await new Promise((r) => setTimeout(r, 500 + Math.random() * 1000));
    }
    agent.destroy();
  }

  await Promise.all(Array.from({ length: options.users }, (_, i) => user(i)));
  latencies.sort((a, b) => a - b);
  const result = {
    users: options.users,
    seconds: options.seconds,
    pageViews,
    requests: latencies.length,
    rps: latencies.length / options.seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    byPage: Object.fromEntries(
      Object.entries(byPage).map(([name, figures]) => {
        const sorted = figures.latencies.sort((a, b) => a - b);
        return [name, { pageViews: figures.pageViews, p99: sorted.length ? percentile(sorted, 0.99) : 0 }];
      }),
    ),
  };
  process.stdout.write(JSON.stringify(result));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
