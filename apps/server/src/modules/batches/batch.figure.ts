/**
 * A batch's plot of one measure by group (ADR 035): each run's point, the group's box and its mean ± SEM, laid out
 * by lib/figures/group-plot.ts from the statistics' own descriptives and drawn in an analysis worker thread, as the
 * location figures are (ADR 025).
 */
import { downloadFileName } from '../../lib/download-names.js';
import { badRequest } from '../../lib/errors.js';
import { runTask } from '../analysis/engine/worker-client.js';
import { FIGURE_CONTENT_TYPES } from '../analysis/location.figure.js';
import type { Results } from './batch.results.js';
import { groupsOf, valuesByGroup } from './batch.statistics.js';
import { describe } from './engine/group-statistics.js';

export async function batchFigure(
  results: Results,
  measureName: string,
  format: 'png' | 'svg',
  names: { title: string; fileParts: string[] },
) {
  const index = results.measures.findIndex((measure) => measure.name === measureName);
  if (index === -1) {
    throw badRequest({
      measure: [
        results.measures.length === 0
          ? 'This batch has no finished run to plot yet.'
          : `No measure "${measureName}" in this batch's results: use one of ${results.measures.map((measure) => measure.name).join(', ')}.`,
      ],
    });
  }
  const measure = results.measures[index]!;
  const byGroup = valuesByGroup(results, index);
  const groups = groupsOf(results).map((name) => {
    const values = byGroup.get(name)!;
    const figures = describe(values);
    return {
      name,
      values,
      mean: figures.mean,
      sem: figures.sem,
      q1: figures.q1,
      median: figures.median,
      q3: figures.q3,
    };
  });
  if (groups.length === 0) throw badRequest({ measure: ['No run of this batch has a subject with a group to plot.'] });
  const { bytes } = await runTask({
    kind: 'group-plot',
    input: { title: `${names.title}: ${measure.name}`, axisLabel: `${measure.name} (${measure.unit})`, groups },
    format,
  });
  return {
    bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    contentType: FIGURE_CONTENT_TYPES[format],
    fileName: downloadFileName([...names.fileParts, measure.name], format),
  };
}
