/**
 * Group statistics of a results table (ADR 035): for every measure, the descriptives of each subject group and the
 * tests — two groups: Welch's t, Mann–Whitney U (exact or normal approximation, as R's wilcox.test) and Hedges' g;
 * three or more: Welch's one-way ANOVA and Kruskal–Wallis. The figures are engine/group-statistics.ts's, unchanged.
 *
 * Each run is one value (a subject with several runs in the table counts each). Runs of subjects without a group
 * are left out; so are empty cells (a kept count of a run not reviewed, a zone a run does not have). Groups are
 * compared in their names' order, so a two-group difference (t, g) is the first group's mean minus the second's.
 */
import type { z } from 'zod';
import type { Cell, Table } from '../../lib/table-export.js';
import type { Results } from './batch.results.js';
import type { statisticsResponse, testSchema } from './batch.schemas.js';
import {
  describe,
  EXACT_MANN_WHITNEY_BELOW,
  hedgesG,
  kruskalWallis,
  mannWhitney,
  welchAnova,
  welchT,
} from './engine/group-statistics.js';

type Statistics = z.infer<typeof statisticsResponse>;
type Test = z.infer<typeof testSchema>;

/** The numbers of a measure, by group (runs without a group and empty cells left out). */
export function valuesByGroup(results: Results, measureIndex: number): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (const group of groupsOf(results)) groups.set(group, []);
  for (const run of results.runs) {
    const value = run.cells[measureIndex];
    if (run.group === '' || typeof value !== 'number' || !Number.isFinite(value)) continue;
    groups.get(run.group)!.push(value);
  }
  return groups;
}

/** The groups of the table's runs, by name. */
export function groupsOf(results: Results): string[] {
  return [...new Set(results.runs.map((run) => run.group).filter((group) => group !== ''))].sort((a, b) =>
    a.localeCompare(b),
  );
}

const variance = (values: number[]) => {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1);
};

const missing = (test: string, name: Test['statistic_name'], note: string): Test => ({
  test,
  statistic_name: name,
  statistic: null,
  df1: null,
  df2: null,
  p: null,
  note,
});

/** A finite figure, or null (a degenerate input gives NaN or ±∞, which JSON and the files cannot carry). */
const finite = (value: number) => (Number.isFinite(value) ? value : null);

function twoGroupTests(names: string[], a: number[], b: number[]): Test[] {
  const order = `${names[0]} − ${names[1]}`;
  const tests: Test[] = [];
  if (a.length < 2 || b.length < 2) {
    tests.push(missing("Welch's t-test", 't', 'Needs at least 2 values in each group.'));
  } else if (variance(a) + variance(b) === 0) {
    tests.push(missing("Welch's t-test", 't', 'Every value of both groups is its group’s mean: t is undefined.'));
  } else {
    const t = welchT(a, b);
    tests.push({
      test: t.test,
      statistic_name: 't',
      statistic: finite(t.statistic),
      df1: t.df as number,
      df2: null,
      p: finite(t.p),
      note: order,
    });
  }
  if (a.length === 0 || b.length === 0) {
    tests.push(missing('Mann–Whitney U test', 'U', 'Needs at least 1 value in each group.'));
  } else {
    const u = mannWhitney(a, b);
    tests.push({
      test: u.test,
      statistic_name: 'U',
      statistic: u.statistic,
      df1: null,
      df2: null,
      p: finite(u.p),
      note: `U of ${names[0]} (R's W). Exact below ${EXACT_MANN_WHITNEY_BELOW} values per group without ties; otherwise the normal approximation with continuity and tie corrections.`,
    });
  }
  if (a.length < 2 || b.length < 2 || a.length + b.length < 3) {
    tests.push(missing("Hedges' g", 'g', 'Needs at least 2 values in each group.'));
  } else {
    const g = hedgesG(a, b);
    tests.push({
      test: "Hedges' g (exact J)",
      statistic_name: 'g',
      statistic: finite(g.g),
      df1: a.length + b.length - 2,
      df2: null,
      p: null,
      note: `${order}; Cohen's d with the pooled SD × J = ${g.j} (J = Γ(df/2) / (√(df/2)·Γ((df−1)/2)))`,
    });
  }
  return tests;
}

function manyGroupTests(groups: number[][]): Test[] {
  const tests: Test[] = [];
  if (groups.some((group) => group.length < 2)) {
    tests.push(missing("Welch's one-way ANOVA", 'F', 'Needs at least 2 values in each group.'));
  } else if (groups.some((group) => variance(group) === 0)) {
    tests.push(
      missing("Welch's one-way ANOVA", 'F', 'A group whose values are all equal has no variance to weigh by.'),
    );
  } else {
    const f = welchAnova(groups);
    const [df1, df2] = f.df as [number, number];
    tests.push({
      test: f.test,
      statistic_name: 'F',
      statistic: finite(f.statistic),
      df1,
      df2,
      p: finite(f.p),
      note: null,
    });
  }
  const all = groups.flat();
  if (groups.some((group) => group.length === 0) || all.every((value) => value === all[0])) {
    tests.push(missing('Kruskal–Wallis rank-sum test', 'H', 'Needs a value in each group and values that differ.'));
  } else {
    const h = kruskalWallis(groups);
    tests.push({
      test: `${h.test} (tie-corrected)`,
      statistic_name: 'H',
      statistic: finite(h.statistic),
      df1: h.df as number,
      df2: null,
      p: finite(h.p),
      note: null,
    });
  }
  return tests;
}

export function groupStatistics(results: Results): Statistics {
  const groups = groupsOf(results);
  return {
    kind: results.kind,
    groups,
    runs: results.runs.length,
    runs_without_group: results.runs.filter((run) => run.group === '').length,
    measures: results.measures.map((measure, index) => {
      const byGroup = valuesByGroup(results, index);
      const samples = groups.map((group) => byGroup.get(group)!);
      const tests =
        groups.length === 2
          ? twoGroupTests(groups, samples[0]!, samples[1]!)
          : groups.length > 2
            ? manyGroupTests(samples)
            : [];
      return {
        name: measure.name,
        unit: measure.unit,
        groups: groups.map((group, i) => ({ group, ...describe(samples[i]!) })),
        tests,
      };
    }),
  };
}

/** The statistics as tables to download: the descriptives and the tests, a row per measure × group / test. */
export function statisticsTables(statistics: Statistics): { descriptives: Table; tests: Table } {
  const descriptives: Cell[][] = statistics.measures.flatMap((measure) =>
    measure.groups.map((group): Cell[] => [
      measure.name,
      measure.unit,
      group.group,
      group.n,
      group.mean,
      group.sd,
      group.sem,
      group.median,
      group.q1,
      group.q3,
      group.iqr,
    ]),
  );
  const tests: Cell[][] = statistics.measures.flatMap((measure) =>
    measure.tests.map((test): Cell[] => [
      measure.name,
      measure.unit,
      test.test,
      test.statistic_name,
      test.statistic,
      test.df1,
      test.df2,
      test.p,
      test.note,
    ]),
  );
  return {
    descriptives: {
      name: 'descriptives',
      columns: ['measure', 'unit', 'group', 'n', 'mean', 'sd', 'sem', 'median', 'q1', 'q3', 'iqr'],
      rows: descriptives,
    },
    tests: {
      name: 'tests',
      columns: ['measure', 'unit', 'test', 'statistic_name', 'statistic', 'df1', 'df2', 'p', 'note'],
      rows: tests,
    },
  };
}
