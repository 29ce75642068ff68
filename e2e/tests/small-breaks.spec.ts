import { readFileSync } from 'node:fs';
import { uploadReadyVideo } from '../support/analysis';
import {
  createProject,
  createSubject,
  createUser,
  expect,
  signIn,
  type TestProject,
  type TestUser,
  test,
} from '../support/fixtures';
import { testImagePath, testVideoPath } from '../support/global-setup';

/** Issue 20, point 9: the small breaks a new lab met in its first hour. */

test.describe.configure({ mode: 'serial' });

let owner: TestUser;
let project: TestProject;
let subjectUuid = '';

const auth = (user: TestUser) => ({ Authorization: `Bearer ${user.access}` });
const subjectPage = () => `/projects/${project.project_uuid}/subjects/${subjectUuid}`;

test.beforeAll(async ({ request }) => {
  owner = await createUser(request, 'Ada');
  project = await createProject(request, owner, 'First hour');
  subjectUuid = (await createSubject(request, owner, project.project_uuid, 'M3')).subject_uuid;
});

test('the upload card follows its video’s row: processing, then ready', async ({ page }) => {
  await signIn(page, owner, { activeProjectUuid: project.project_uuid });
  await page.goto(subjectPage());
  await page.getByLabel('Video files').setInputFiles(testVideoPath());
  const card = page.getByTestId('upload-item');
  const row = page.getByTestId('video-row').filter({ hasText: 'pattern-4s' });
  await expect(row.getByText('Ready')).toBeVisible({ timeout: 60_000 });
  // The row is ready: the card beside it says so too, not "processing".
  await expect(card).toHaveAttribute('data-video-status', 'ready');
  await expect(card).toContainText('Uploaded — ready');
  await expect(card).not.toContainText('processing');
});

test('a PNG renamed .mp4 is refused as not a video, with no Retry: it can be removed from the list', async ({
  page,
  allowConsole,
}) => {
  // The browser logs the refused request itself.
  allowConsole(/Failed to load resource: the server responded with a status of 400/);
  await signIn(page, owner, { activeProjectUuid: project.project_uuid });
  await page.goto(subjectPage());
  await page.getByLabel('Video files').setInputFiles({
    name: 'photo.mp4',
    mimeType: 'video/mp4',
    buffer: readFileSync(testImagePath()),
  });
  const card = page.getByTestId('upload-item').filter({ hasText: 'photo.mp4' });
  await expect(card).toContainText('The file is not a video in a container we accept');
  await expect(card).toContainText('Refused');
  await expect(card.getByTestId('upload-refused')).toHaveText(
    'Sending the same file again cannot succeed: remove it from the list.',
  );
  await expect(card.getByRole('button', { name: /Retry/ })).toHaveCount(0);
  await card.getByRole('button', { name: 'Remove from list' }).click();
  await expect(card).toHaveCount(0);
});

test('at 1,400 px the subject’s video table fits its card: the actions column is inside', async ({ page, request }) => {
  await uploadReadyVideo(
    request,
    owner,
    project.project_uuid,
    subjectUuid,
    testVideoPath(),
    'A long recording name of the open field, day 3',
  );
  await page.setViewportSize({ width: 1400, height: 900 });
  await signIn(page, owner, { activeProjectUuid: project.project_uuid });
  await page.goto(subjectPage());
  const table = page.getByRole('table', { name: 'Videos' });
  await expect(table.getByTestId('video-row').first()).toBeVisible();
  const card = page.locator('[data-slot="card"]').filter({ has: table });
  const cardBox = (await card.boundingBox())!;
  const head = (await page.getByTestId('video-actions-head').boundingBox())!;
  expect(head.x + head.width).toBeLessThanOrEqual(cardBox.x + cardBox.width + 0.5);
  for (const cell of await page.getByTestId('video-actions').all()) {
    const box = (await cell.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(cardBox.x + cardBox.width + 0.5);
  }
  // Nothing to scroll sideways: the table is no wider than its container.
  const overflow = await page
    .getByTestId('videos-table')
    .locator('[data-slot="table-container"]')
    .evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.getByRole('button', { name: /^Actions for A long recording/ }).click();
  await expect(page.getByRole('menuitem', { name: 'Rename' })).toBeVisible();
});

test('pasting 500 characters into a 200-character field keeps 200 and says so', async ({ page }) => {
  await signIn(page, owner, { activeProjectUuid: project.project_uuid });
  await page.goto('/new-project');
  const name = page.getByLabel('Project name');
  // A real paste from the clipboard.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.evaluate(() => navigator.clipboard.writeText('y'.repeat(500)));
  await name.focus();
  await page.keyboard.press('ControlOrMeta+V');
  await expect(name).toHaveValue('y'.repeat(200));
  await expect(page.getByTestId('cap-note')).toHaveText(
    'The pasted text was cut to 200 characters, the most a project name can have (300 left out).',
  );
  // Creating it works: no complaint about the length afterwards.
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page).toHaveURL(/\/projects\/[0-9a-f-]{36}$/);
  await expect(page.getByText('Use at most 200 characters.')).toHaveCount(0);
});

test('one bout is "1 bout"; the Agreement page’s breadcrumb ends with its name', async ({ page, request }) => {
  const video = await uploadReadyVideo(request, owner, project.project_uuid, subjectUuid, testVideoPath(), 'bouts');
  const base = `/api/projects/${project.project_uuid}/subjects/${subjectUuid}/videos/${video.videoUuid}/annotations/`;
  const created = await request.post(`${base}config/`, { headers: auth(owner), data: { name: 'Rearing' } });
  expect(created.status()).toBe(201);
  const track = (await created.json()).annotation_config_uuid as string;
  const put = await request.put(`${base}${track}/`, { headers: auth(owner), data: { ranges: [[1, 2]], version: 0 } });
  expect(put.status(), await put.text()).toBe(200);

  await signIn(page, owner, { activeProjectUuid: project.project_uuid });
  await page.goto(`/projects/${project.project_uuid}/annotator?subject=${subjectUuid}&video=${video.videoUuid}`);
  await expect(page.getByText(/^1 bout · /)).toBeVisible();
  await expect(page.getByText(/1 bouts/)).toHaveCount(0);

  await page.goto(`/projects/${project.project_uuid}/agreement?subject=${subjectUuid}&video=${video.videoUuid}`);
  // The reference's track choice counts its bouts the same way.
  await expect(page.locator('option', { hasText: 'Rearing · 1 bout' })).toHaveCount(1);
  await expect(page.locator('option', { hasText: '1 bouts' })).toHaveCount(0);
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(crumbs.getByRole('link', { name: 'First hour' })).toBeVisible();
  await expect(crumbs.locator('[aria-current="page"]')).toHaveText('Agreement');
});
