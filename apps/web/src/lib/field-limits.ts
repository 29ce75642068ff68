/**
 * The longest text each form field may hold: the server's limits (its zod schemas, published as `maxLength` in
 * packages/api/openapi.json — field-limits.test.ts fails when the two part). Inputs cap at these, so a paste never
 * keeps more than the server takes.
 */
export const FIELD_LIMITS = {
  projectName: 200,
  projectInstitution: 200,
  projectInvestigator: 200,
  projectDescription: 5000,
  subjectName: 100,
  subjectGroup: 100,
  subjectNotes: 10_000,
  videoName: 255,
  trackName: 100,
  protocolName: 100,
} as const;
