import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/factories.js';
import { createProjectWithSubject } from '../../test/factories-videos.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { findNullCharacter, NULL_CHARACTER_MESSAGE } from './null-characters.js';

describe('findNullCharacter', () => {
  it('finds a NUL in a nested string or key and names its path', () => {
    expect(findNullCharacter({ a: [1, 'ok', { b: 'x\u0000' }] })).toEqual(['a', 2, 'b']);
    expect(findNullCharacter({ a: { 'k\u0000': 1 } })).toEqual(['a', 'k\u0000']);
    expect(findNullCharacter('\u0000')).toEqual([]);
    expect(findNullCharacter({ a: 'no nul here', b: [null, true, 3, '\\u0000'] })).toBeUndefined();
  });

  it('walks any depth without recursion', () => {
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findNullCharacter(deep)).toHaveLength(200_000);
  });
});

describe('NUL characters over HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('a NUL in a query or a JSON body is a field error; an outsider still sees 404 first', async () => {
    const owner = await createUser(t.ctx);
    const outsider = await createUser(t.ctx);
    const project = await createProjectWithSubject(t.ctx, owner);
    const subjects = `/api/projects/${project.projectUuid}/subjects/`;
    const search = await t.app.inject({ method: 'GET', url: `${subjects}?search=a%00b`, headers: owner.headers });
    expect(search.statusCode).toBe(400);
    expect(search.json()).toEqual({ errors: { search: [NULL_CHARACTER_MESSAGE] } });
    const created = await t.app.inject({
      method: 'POST',
      url: subjects,
      headers: owner.headers,
      payload: { name: 'M\u00001' },
    });
    expect(created.statusCode).toBe(400);
    expect(created.json()).toEqual({ errors: { name: [NULL_CHARACTER_MESSAGE] } });
    const hidden = await t.app.inject({ method: 'GET', url: `${subjects}?search=%00`, headers: outsider.headers });
    expect(hidden.statusCode).toBe(404);
  });
});
