import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerProjectScope } from './project-scope.js';

describe('project scope', () => {
  it('refuses to start when a route under a project declares no role', async () => {
    const app = Fastify();
    registerProjectScope(app);
    const start = async () => {
      await app.register(
        async (api) => {
          api.get('/projects/:project_uuid/things/', async () => 'open to anyone');
        },
        { prefix: '/api' },
      );
      await app.ready();
    };
    await expect(start()).rejects.toThrow(
      '/api/projects/:project_uuid/things/ is under a project but declares no config.access',
    );
  });

  it('starts when every project route declares a role or says it is not project-scoped', async () => {
    const app = Fastify();
    registerProjectScope(app);
    await app.register(
      async (api) => {
        api.get('/projects/:project_uuid/things/', { config: { access: 'viewer' } }, async () => 'members');
        api.post('/projects/:project_uuid/join/', { config: { notProjectScoped: true } }, async () => 'invitee');
        api.get('/projects/', async () => 'own list');
      },
      { prefix: '/api' },
    );
    await expect(app.ready()).resolves.toBeDefined();
    await app.close();
  });
});
