import path from 'node:path';
import { uploadReadyVideo } from '../support/analysis';
import { createProject, createSubject, createUser, expect, signIn, type TestUser, test } from '../support/fixtures';
import { testVideoPath } from '../support/global-setup';
import { importRunWithEvents } from '../support/quick-score';

/** `npm run screenshots`: the Trash page with a subject, a video and a run in it, into docs/screenshots/. */
const OUT = path.resolve(import.meta.dirname, '../../docs/screenshots');
const VIEWPORTS = { desktop: { width: 1440, height: 960 }, phone: { width: 390, height: 844 } } as const;
const THEMES = ['light', 'dark'] as const;

test.describe.configure({ mode: 'serial' });

let user: TestUser;
let projectUuid = '';

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  user = await createUser(request, 'Maria');
  const headers = { Authorization: `Bearer ${user.access}` };
  projectUuid = (await createProject(request, user, 'Neonatal twitch study')).project_uuid;
  const kept = await createSubject(request, user, projectUuid, 'M12');
  const pilot = await createSubject(request, user, projectUuid, 'P9-pilot');
  // The pilot subject with its video and a run, then a discarded session and a wrong run of M12.
  const pilotVideo = await uploadReadyVideo(request, user, projectUuid, pilot.subject_uuid, testVideoPath(), 'Pilot');
  await importRunWithEvents(request, user, pilotVideo, [30, 60, 90], 120);
  const session = await uploadReadyVideo(request, user, projectUuid, kept.subject_uuid, testVideoPath(), 'Session 3');
  const keptVideo = await uploadReadyVideo(request, user, projectUuid, kept.subject_uuid, testVideoPath(), 'Session 1');
  const wrong = await importRunWithEvents(request, user, keptVideo, [10, 20], 120);
  const base = `/api/projects/${projectUuid}/subjects/`;
  const deletions = [
    `${base}${kept.subject_uuid}/videos/${keptVideo.videoUuid}/analysis/${wrong.analysisUuid}/`,
    `${base}${kept.subject_uuid}/videos/${session.videoUuid}/`,
    `${base}${pilot.subject_uuid}/`,
  ];
  for (const url of deletions) {
    const response = await request.delete(url, { headers });
    expect(response.status(), await response.text()).toBe(204);
  }
});

for (const [device, viewport] of Object.entries(VIEWPORTS)) {
  for (const theme of THEMES) {
    test(`trash ${device} ${theme}`, async ({ browser }) => {
      const context = await browser.newContext({
        viewport,
        colorScheme: theme,
        deviceScaleFactor: device === 'phone' ? 2 : 1,
      });
      await context.addInitScript((t) => localStorage.setItem('vite-ui-theme', t), theme);
      const page = await context.newPage();
      await signIn(page, user, { activeProjectUuid: projectUuid });
      await page.goto(`/projects/${projectUuid}/trash`);
      await expect(page.getByTestId('trash-row')).toHaveCount(3);
      await page.mouse.move(0, 0);
      await page.waitForLoadState('networkidle').catch(() => {});
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(OUT, `trash-${theme}-${device}.png`) });
      await context.close();
    });
  }
}
