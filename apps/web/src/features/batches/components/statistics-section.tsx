import { useQuery } from '@tanstack/react-query';
import { Download, Sigma } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { ServerFigure } from '@/components/figure/server-figure';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { saveResponse } from '@/lib/download';
import { errorMessage } from '@/lib/errors';
import { countOf } from '@/lib/format';
import { type MeasureStatistics, resultQueries, resultsApi, type StatisticsTable, type TableFormat } from '../api';
import { formatDf, formatFigure, formatP, measureLabel, pMethod } from '../figures-text';

/** The statistics' downloads: both tables as CSV, and the workbook of both (its `table` is ignored for XLSX). */
const STATISTICS_DOWNLOADS: { label: string; format: TableFormat; table: StatisticsTable }[] = [
  { label: 'Descriptives CSV', format: 'csv', table: 'descriptives' },
  { label: 'Tests CSV', format: 'csv', table: 'tests' },
  { label: 'XLSX', format: 'xlsx', table: 'tests' },
];

/**
 * The group statistics of a batch, one measure at a time: per subject group n, mean, SD, SEM, median and IQR, the
 * tests with their statistic, degrees of freedom and p (and how p was found), and the server's plot of the measure
 * (each run's point, the box, mean ± SEM) with PNG and SVG downloads.
 */
export function StatisticsSection({
  projectUuid,
  batchUuid,
  version,
}: {
  projectUuid: string;
  batchUuid: string;
  version: string;
}) {
  const statistics = useQuery(resultQueries.statistics(projectUuid, batchUuid, version));
  const measures = statistics.data?.measures ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  const measure = measures.find((item) => item.name === chosen) ?? measures[0];
  const [downloading, setDownloading] = useState(false);

  const download = async (format: TableFormat, table: StatisticsTable) => {
    setDownloading(true);
    try {
      await resultsApi.downloadStatistics(projectUuid, batchUuid, format, table);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Card data-testid="statistics-section">
      <CardHeader className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle className="flex items-center gap-2">
            <Sigma className="size-4" aria-hidden="true" />
            Group statistics
          </CardTitle>
          <CardDescription>
            By subject group. Two groups: Welch’s t, Mann–Whitney U and Hedges’ g; three or more: Welch’s one-way ANOVA
            and Kruskal–Wallis.
            {statistics.data?.runs_without_group
              ? ` ${countOf(statistics.data.runs_without_group, 'run')} of subjects without a group ${
                  statistics.data.runs_without_group === 1 ? 'is' : 'are'
                } left out.`
              : ''}
          </CardDescription>
        </div>
        <fieldset className="flex flex-wrap gap-2">
          <legend className="sr-only">Download the statistics</legend>
          {STATISTICS_DOWNLOADS.map(({ label, format, table }) => (
            <Button
              key={label}
              variant="outline"
              size="sm"
              disabled={downloading || !measure}
              onClick={() => void download(format, table)}
            >
              <Download aria-hidden="true" />
              {label}
            </Button>
          ))}
        </fieldset>
      </CardHeader>
      <CardContent className="grid gap-6">
        {statistics.isLoading ? (
          <Skeleton className="h-40" />
        ) : statistics.isError ? (
          <p className="text-destructive text-sm">
            The statistics could not be computed: {errorMessage(statistics.error)}
          </p>
        ) : !measure ? (
          <p className="text-muted-foreground text-sm">The statistics appear once runs have succeeded.</p>
        ) : (
          <>
            <Field id="statistics-measure" label="Measure" className="max-w-md">
              <NativeSelect
                id="statistics-measure"
                value={measure.name}
                onChange={(event) => setChosen(event.target.value)}
              >
                {measures.map((item) => (
                  <option key={item.name} value={item.name}>
                    {measureLabel(item)}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_24rem]">
              <div className="grid min-w-0 content-start gap-6">
                <Descriptives measure={measure} />
                <Tests measure={measure} />
              </div>
              {statistics.data?.groups.length ? (
                <Plot projectUuid={projectUuid} batchUuid={batchUuid} measure={measure} version={version} />
              ) : (
                <p className="text-muted-foreground text-sm" data-testid="statistics-plot-waiting">
                  The plot appears once a run of a subject with a group has succeeded.
                </p>
              )}
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}

function Descriptives({ measure }: { measure: MeasureStatistics }) {
  return (
    <div className="overflow-x-auto">
      <Table aria-label={`Descriptives of ${measure.name}`} data-testid="descriptives">
        <TableHeader>
          <TableRow>
            <TableHead>Group</TableHead>
            {['n', 'Mean', 'SD', 'SEM', 'Median', 'IQR (Q1–Q3)'].map((name) => (
              <TableHead key={name} className="text-right">
                {name}
              </TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {measure.groups.map((group) => (
            <TableRow key={group.group} data-testid="descriptives-row" data-group={group.group}>
              <TableCell className="font-medium">{group.group}</TableCell>
              <TableCell className="text-right tabular-nums" data-testid="stat-n">
                {group.n}
              </TableCell>
              <TableCell className="text-right tabular-nums" data-testid="stat-mean">
                {formatFigure(group.mean)}
              </TableCell>
              <TableCell className="text-right tabular-nums" data-testid="stat-sd">
                {formatFigure(group.sd)}
              </TableCell>
              <TableCell className="text-right tabular-nums" data-testid="stat-sem">
                {formatFigure(group.sem)}
              </TableCell>
              <TableCell className="text-right tabular-nums" data-testid="stat-median">
                {formatFigure(group.median)}
              </TableCell>
              <TableCell className="text-right tabular-nums" data-testid="stat-iqr">
                {formatFigure(group.iqr)}
                {group.q1 !== null && group.q3 !== null ? (
                  <span className="text-muted-foreground">
                    {' '}
                    ({formatFigure(group.q1)}–{formatFigure(group.q3)})
                  </span>
                ) : null}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

function Tests({ measure }: { measure: MeasureStatistics }) {
  if (measure.tests.length === 0) {
    return <p className="text-muted-foreground text-sm">One group: there is nothing to compare.</p>;
  }
  return (
    <div className="overflow-x-auto">
      <Table aria-label={`Tests of ${measure.name}`} data-testid="tests">
        <TableHeader>
          <TableRow>
            <TableHead>Test</TableHead>
            <TableHead className="text-right">Statistic</TableHead>
            <TableHead className="text-right">df</TableHead>
            <TableHead className="text-right">p</TableHead>
            <TableHead>p found by</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {measure.tests.map((test) => (
            <TableRow key={test.test} data-testid="test-row">
              <TableCell className="whitespace-normal">
                <p className="font-medium">{test.test}</p>
                {test.note ? <p className="text-muted-foreground text-xs">{test.note}</p> : null}
              </TableCell>
              <TableCell className="text-right tabular-nums">
                {test.statistic_name} = {formatFigure(test.statistic)}
              </TableCell>
              <TableCell className="text-right tabular-nums">{formatDf(test)}</TableCell>
              <TableCell className="text-right tabular-nums">{formatP(test.p)}</TableCell>
              <TableCell>{pMethod(test)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

function Plot({
  projectUuid,
  batchUuid,
  measure,
  version,
}: {
  projectUuid: string;
  batchUuid: string;
  measure: MeasureStatistics;
  version: string;
}) {
  const svg = useQuery(resultQueries.figure(projectUuid, batchUuid, measure.name, version));
  return (
    <ServerFigure
      title={measureLabel(measure)}
      alt={`${measure.name} by group: each run’s value, the box and the mean ± SEM`}
      caption="Each run’s value; the box spans Q1–Q3 with the median, whiskers to 1.5 × IQR; the diamond and bar are the mean ± SEM."
      svg={svg}
      onDownload={async (format) =>
        saveResponse(await resultsApi.figure(projectUuid, batchUuid, measure.name, format), `${measure.name}.${format}`)
      }
      testId="statistics-plot"
    />
  );
}
