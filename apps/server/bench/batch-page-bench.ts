// The batch page row of `npm run bench` (issue 23, ADR 036): how long the page of a 200-run batch takes to open in
// headless Chromium on the built app — from the navigation's start to the batch's progress, its first page of runs,
// the results table's first page, the group table and the plot all on screen. batch-bench.ts seeds the batch and
// calls this while its server runs (one seeding for the API rows and this one).
import { chromium } from 'playwright-core';
import type { BenchHarness } from './harness.js';
import { median } from './run-measure.js';

interface PageGlobal {
  document: { querySelectorAll(selector: string): { length: number }; querySelector(selector: string): unknown };
  performance: { now(): number };
}

const LOADS = 6;

/** Seconds to "open": every part of the page drawn, measured in the page from its navigation's start. */
export async function batchPageRows(
  h: BenchHarness,
  projectUuid: string,
  batchUuid: string,
  runs: number,
): Promise<[string, string][]> {
  const token = await h.login();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: h.baseUrl });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto('/auth/login');
    await page.evaluate(
      ({ access, project }) => {
        localStorage.setItem('accessToken', access);
        localStorage.setItem('activeProjectUuid', project);
      },
      { access: token, project: projectUuid },
    );
    const opens: number[] = [];
    for (let load = 0; load < LOADS; load++) {
      await page.goto(`/projects/${projectUuid}/batches/${batchUuid}`);
      const ms = await page.waitForFunction(
        () => {
          const { document, performance } = globalThis as unknown as PageGlobal;
          const img = document.querySelector('[data-testid="statistics-plot"] img') as { complete?: boolean } | null;
          const drawn =
            document.querySelector('[data-testid="batch-progress"]') !== null &&
            document.querySelectorAll('[data-testid="batch-run-row"]').length > 0 &&
            document.querySelectorAll('[data-testid="result-row"]').length > 0 &&
            document.querySelectorAll('[data-testid="descriptives-row"]').length > 0 &&
            img?.complete === true;
          return drawn ? performance.now() : false;
        },
        undefined,
        { polling: 'raf', timeout: 30_000 },
      );
      // The first load fills the browser's cache of the app's files; the rest are a returning user's.
      if (load > 0) opens.push((await ms.jsonValue()) as number);
    }
    if (errors.length > 0) throw new Error(`batch page errors: ${errors.join('; ')}`);
    await context.close();
    return [
      [
        `Batch page of a ${runs}-run batch opened (navigation start to its progress, first page of runs, results table, group table and plot on screen), headless Chromium, no GPU, median of ${LOADS - 1} loads after one warm-up (max; target < 1 s)`,
        `${median(opens).toFixed(0)} ms (${Math.max(...opens).toFixed(0)} ms)`,
      ],
    ];
  } finally {
    await browser.close();
  }
}
