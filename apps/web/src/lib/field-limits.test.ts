import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIELD_LIMITS } from './field-limits';

type Schema = { properties?: Record<string, Schema>; maxLength?: number };
type Spec = {
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>;
};

const spec: Spec = JSON.parse(
  readFileSync(path.resolve(__dirname, '../../../../packages/api/openapi.json'), 'utf8'),
) as Spec;

/** The maxLength of `field` (a dotted path) in the JSON body of `method path`. */
function maxLength(route: string, method: string, field: string): number | undefined {
  let schema: Schema | undefined = spec.paths[route]?.[method]?.requestBody?.content['application/json']?.schema;
  for (const part of field.split('.')) schema = schema?.properties?.[part];
  return schema?.maxLength;
}

describe('field limits', () => {
  it('are the server’s, as the OpenAPI document publishes them', () => {
    const video = '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/';
    const expected = {
      projectName: maxLength('/api/projects/', 'post', 'name'),
      projectInstitution: maxLength('/api/projects/', 'post', 'metadata.institution'),
      projectInvestigator: maxLength('/api/projects/', 'post', 'metadata.principal_investigator'),
      projectDescription: maxLength('/api/projects/', 'post', 'metadata.description'),
      subjectName: maxLength('/api/projects/{project_uuid}/subjects/', 'post', 'name'),
      subjectGroup: maxLength('/api/projects/{project_uuid}/subjects/', 'post', 'group'),
      subjectNotes: maxLength('/api/projects/{project_uuid}/subjects/', 'post', 'notes'),
      videoName: maxLength(video, 'patch', 'name'),
      trackName: maxLength(`${video}annotations/config/`, 'post', 'name'),
      protocolName: maxLength('/api/projects/{project_uuid}/protocols/', 'post', 'name'),
    };
    expect(Object.values(expected).every((value) => typeof value === 'number')).toBe(true);
    expect(FIELD_LIMITS).toEqual(expected);
  });
});
