import { statSync } from 'node:fs';
import { createProject, createSubject, createUser, expect, signIn, test } from '../support/fixtures';
import { bigVideoPath } from '../support/global-setup';

test('a video above 50 MB uploads through the resumable (tus) endpoint', async ({ page, request }) => {
  test.setTimeout(120_000);
  const file = bigVideoPath();
  expect(statSync(file).size).toBeGreaterThan(50 * 1024 * 1024);
  const user = await createUser(request, 'Bulk');
  const project = await createProject(request, user, 'Long recordings');
  const subject = await createSubject(request, user, project.project_uuid, 'L1');
  await signIn(page, user);
  await page.goto(`/projects/${project.project_uuid}/subjects/${subject.subject_uuid}`);

  const tusRequests: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/uploads/')) tusRequests.push(r.method());
  });
  await page.getByLabel('Video files').setInputFiles(file);
  const upload = page.getByTestId('upload-item');
  await expect(upload).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  // One creation (POST) and at least four 16 MB chunks (PATCH).
  expect(tusRequests.filter((m) => m === 'POST')).toHaveLength(1);
  expect(tusRequests.filter((m) => m === 'PATCH').length).toBeGreaterThanOrEqual(4);
  const row = page.getByTestId('video-row').filter({ hasText: 'pattern-big' });
  await expect(row.locator('[data-status="ready"]')).toBeVisible({ timeout: 60_000 });
  await expect(row.getByTestId('video-duration')).toHaveText('00:26');
});
