import { readFileSync } from 'node:fs';
import { createProject, createSubject, createUser, expect, signIn, test } from '../support/fixtures';
import { testImagePath, testVideoPath } from '../support/global-setup';

test('subjects: search, sort, paginate, edit and bulk delete', async ({ page, request }) => {
  const user = await createUser(request, 'Tabular');
  const project = await createProject(request, user, 'Table study');
  for (let i = 1; i <= 12; i++)
    await createSubject(request, user, project.project_uuid, `S${String(i).padStart(2, '0')}`);
  await signIn(page, user);
  await page.goto('/subjects?page_size=10');
  await expect(page).toHaveURL(`/projects/${project.project_uuid}/subjects?page_size=10`);
  const rows = page.getByRole('table', { name: 'Subjects' }).locator('tbody tr');
  await expect(rows).toHaveCount(10);
  await expect(page.getByText('1–10 of 12')).toBeVisible();
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(rows).toHaveCount(2);
  await expect(page.getByText('11–12 of 12')).toBeVisible();

  await page.getByRole('button', { name: 'Name' }).click();
  await expect(page.getByRole('columnheader', { name: 'Name' })).toHaveAttribute('aria-sort', 'descending');
  await expect(rows.first()).toContainText('S12');

  await page.getByLabel('Search subjects').fill('S0');
  await expect(rows).toHaveCount(9);
  await expect(page).toHaveURL(/search=S0/);

  await page.getByLabel('Select S09').click();
  await page.getByLabel('Select S08').click();
  await page.getByRole('button', { name: 'Delete selected' }).click();
  await expect(page.getByRole('alertdialog', { name: 'Delete 2 subjects?' })).toBeVisible();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('2 subjects deleted')).toBeVisible();
  await expect(rows).toHaveCount(7);

  await page.getByRole('button', { name: 'Actions for S07' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit subject' });
  await dialog.getByLabel('Name').fill('');
  await dialog.getByRole('button', { name: 'Save subject' }).click();
  await expect(dialog.getByText('Give the subject a name.')).toBeVisible();
  await dialog.getByLabel('Name').fill('S07-renamed');
  await dialog.getByRole('button', { name: 'Add field' }).click();
  await dialog.getByLabel('Field 1 name').fill('strain');
  await dialog.getByLabel('Field 1 value').fill('C57BL/6');
  await dialog.getByRole('button', { name: 'Save subject' }).click();
  await expect(dialog).toBeHidden();
  await page.getByLabel('Search subjects').fill('renamed');
  await expect(rows).toHaveCount(1);
  await rows.first().getByRole('link').click();
  await expect(page.getByText('C57BL/6')).toBeVisible();
});

test('videos: several uploads with progress, rename and batch delete', async ({ page, request }) => {
  const user = await createUser(request, 'Uploader');
  const project = await createProject(request, user, 'Upload study');
  const subject = await createSubject(request, user, project.project_uuid, 'R1');
  await signIn(page, user);
  await page.goto(`/subjects/${subject.subject_uuid}`);
  await expect(page).toHaveURL(`/projects/${project.project_uuid}/subjects/${subject.subject_uuid}`);

  const buffer = readFileSync(testVideoPath());
  await page.getByLabel('Video files').setInputFiles([
    { name: 'day1.mp4', mimeType: 'video/mp4', buffer },
    { name: 'day2.mp4', mimeType: 'video/mp4', buffer },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a video') },
  ]);
  await expect(page.getByText('1 file is not a video')).toBeVisible();
  const uploads = page.getByTestId('upload-item');
  await expect(uploads).toHaveCount(2);
  await expect(uploads.nth(0)).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(uploads.nth(1)).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  const rows = page.getByTestId('video-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.locator('[data-status="ready"]')).toHaveCount(2, { timeout: 60_000 });

  await page.getByRole('button', { name: 'Actions for day1' }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  await page.getByRole('dialog', { name: 'Rename video' }).getByLabel('Name').fill('Day 1 — baseline');
  await page.getByRole('dialog', { name: 'Rename video' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('button', { name: 'Open Day 1 — baseline' })).toBeVisible();

  await page.getByLabel('Select all videos').click();
  await page.getByRole('button', { name: 'Delete selected' }).click();
  await page.getByRole('alertdialog', { name: 'Delete 2 videos?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('2 videos deleted')).toBeVisible();
  await expect(page.getByText('No videos yet')).toBeVisible();
});

test('project page: logo upload with preview and the members list', async ({ page, request }) => {
  const user = await createUser(request, 'Logo');
  const project = await createProject(request, user, 'Branded study');
  await signIn(page, user);
  await page.goto('/projects');
  await expect(page).toHaveURL(`/projects/${project.project_uuid}`);
  await expect(page.getByRole('list', { name: 'Project members' })).toContainText(user.email);
  await page.getByLabel('Project logo').setInputFiles(testImagePath());
  const dialog = page.getByRole('dialog', { name: 'New project logo' });
  await expect(dialog.getByRole('img', { name: 'Logo preview' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Upload logo' }).click();
  await expect(page.getByText('Logo updated')).toBeVisible();
  await expect(dialog).toBeHidden();
  // The switcher (list cache) and the page (detail cache) both show the new logo.
  await expect(page.getByRole('button', { name: 'Switch project' }).locator('img')).toHaveAttribute('src', /.+/);
});
