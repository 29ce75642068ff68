import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFINITIONS } from './definitions';

const adr = readFileSync(
  path.resolve(import.meta.dirname, '../../../../../docs/decisions/010-agreement-and-calibration.md'),
  'utf8',
);

describe('the definitions shown in the app', () => {
  it('are the ADR’s, word for word', () => {
    // The ADR marks the defined terms bold; the app states the same words without markup.
    const text = adr.replaceAll('**', '');
    for (const definition of Object.values(DEFINITIONS)) expect(text).toContain(definition);
  });
});
