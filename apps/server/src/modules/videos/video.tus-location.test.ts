import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.js';
import { createProjectWithSubject, type ProjectWithSubject } from '../../../test/factories-videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';

const b64 = (value: string) => Buffer.from(value).toString('base64');

/** Starts a tus upload over real HTTP with extra (hostile or proxy) headers; returns its `Location`. */
async function createUpload(t: TestApp, user: TestUser, project: ProjectWithSubject, headers: Record<string, string>) {
  const response = await fetch(`${t.url}/api/uploads/`, {
    method: 'POST',
    headers: {
      ...user.headers,
      ...headers,
      'tus-resumable': '1.0.0',
      'upload-length': '1000',
      'upload-metadata': [
        `project_uuid ${b64(project.projectUuid)}`,
        `subject_uuid ${b64(project.subjectUuid)}`,
        `filename ${b64('cage.mp4')}`,
      ].join(','),
    },
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return response.headers.get('location') ?? '';
}

const HOSTILE = {
  'x-forwarded-host': 'evil.example',
  'x-forwarded-proto': 'https',
  forwarded: 'host=evil.example;proto=https',
};

describe('the tus Location header', () => {
  describe('without TRUST_PROXY (the default)', () => {
    let t: TestApp;
    let owner: TestUser;
    let project: ProjectWithSubject;
    beforeAll(async () => {
      t = await createTestApp({ listen: true, config: { publicUrl: 'https://videos.lab.example' } });
      owner = await createUser(t.ctx);
      project = await createProjectWithSubject(t.ctx, owner);
    });
    afterAll(() => t.close());

    it('is built from PUBLIC_URL, whatever X-Forwarded-Host, Forwarded or Host say', async () => {
      const location = await createUpload(t, owner, project, HOSTILE);
      expect(location).toMatch(/^https:\/\/videos\.lab\.example\/api\/uploads\/[0-9a-f-]{36}$/);
      const plain = await createUpload(t, owner, project, {});
      expect(plain).toMatch(/^https:\/\/videos\.lab\.example\/api\/uploads\/[0-9a-f-]{36}$/);
    });
  });

  describe('with TRUST_PROXY naming the proxy', () => {
    let t: TestApp;
    let owner: TestUser;
    let project: ProjectWithSubject;
    beforeAll(async () => {
      t = await createTestApp({
        listen: true,
        config: { publicUrl: 'https://videos.lab.example', trustProxy: '127.0.0.1' },
      });
      owner = await createUser(t.ctx);
      project = await createProjectWithSubject(t.ctx, owner);
    });
    afterAll(() => t.close());

    it("follows the trusted proxy's X-Forwarded-Host and X-Forwarded-Proto", async () => {
      const location = await createUpload(t, owner, project, {
        'x-forwarded-host': 'proxy.lab.example',
        'x-forwarded-proto': 'https',
      });
      expect(location).toMatch(/^https:\/\/proxy\.lab\.example\/api\/uploads\/[0-9a-f-]{36}$/);
    });
  });
});
