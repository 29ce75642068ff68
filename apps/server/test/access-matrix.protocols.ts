import type { InjectOptions } from 'fastify';
import { protocols, protocolVersions } from '../src/db/schema.js';
import type { Endpoint, Fixture } from './access-matrix.types.js';

const json = (method: InjectOptions['method'], url: string, payload?: object): InjectOptions => ({
  method,
  url,
  ...(payload ? { payload } : {}),
});
const protocolsUrl = (f: Fixture) => `/api/projects/${f.projectUuid}/protocols/`;
const protocolUrl = (f: Fixture) => `${protocolsUrl(f)}${f.protocolUuid}/`;

/** A movement-detection protocol at version 1, straight in the database. */
export const withProtocol: Endpoint['prepare'] = async (t, fixture, owner) => {
  const [row] = await t.ctx.db
    .insert(protocols)
    .values({ projectUuid: fixture.projectUuid, name: 'Matrix protocol', kind: 'movement_detection' })
    .returning();
  await t.ctx.db.insert(protocolVersions).values({
    protocolUuid: row!.protocolUuid,
    version: 1,
    name: 'Matrix protocol',
    parameters: { threshold: 20 },
    createdById: owner.id,
  });
  fixture.protocolUuid = row!.protocolUuid;
};

export const accessMatrixProtocolEndpoints: Endpoint[] = [
  { name: 'GET protocols', minimum: 'viewer', request: (f) => json('GET', protocolsUrl(f)) },
  {
    name: 'POST protocols',
    minimum: 'member',
    request: (f) => json('POST', protocolsUrl(f), { name: 'Open field', kind: 'movement_detection', parameters: {} }),
  },
  { name: 'GET protocol', minimum: 'viewer', prepare: withProtocol, request: (f) => json('GET', protocolUrl(f)) },
  {
    name: 'PATCH protocol',
    minimum: 'member',
    prepare: withProtocol,
    request: (f) => json('PATCH', protocolUrl(f), { name: 'Renamed protocol' }),
  },
  {
    name: 'DELETE protocol',
    minimum: 'member',
    prepare: withProtocol,
    request: (f) => json('DELETE', protocolUrl(f)),
  },
];
