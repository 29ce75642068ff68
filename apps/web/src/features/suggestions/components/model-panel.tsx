import { GraduationCap, Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/select';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { countOf, formatDate } from '@/lib/format';
import { cn } from '@/lib/utils';
import type { ModelScope, SuggestionModel } from '../api';
import { useTrainModel } from '../hooks/use-train-model';

/** Examples a class needs before it is suggested (issue 25). */
export const MIN_EXAMPLES = 30;

type Figures = NonNullable<SuggestionModel['decisions']>['keep'];
const share = (value: number | null) => (value === null ? '—' : value.toFixed(2));
const shown = (figures: Figures, bar: number) => figures.examples >= MIN_EXAMPLES && (figures.precision ?? 0) >= bar;

const TRAINING_TEXT: Record<SuggestionModel['training']['state'], string> = {
  idle: '',
  queued: 'Training queued…',
  running: 'Training…',
  failed: 'The last training failed.',
};

/**
 * How far a run's suggestions can be trusted (ADR 038): the model's figures held out by video — precision, recall and
 * examples per decision and per label, and whether the reader's bar shows them — its versions as the reviews grew,
 * and "Train now".
 */
export function ModelPanel({
  scope,
  model,
  loading,
  bar,
  barChoices,
  onBar,
  canEdit,
}: {
  scope: ModelScope;
  model: SuggestionModel | null | undefined;
  loading: boolean;
  bar: number;
  barChoices: readonly number[];
  onBar: (bar: number) => void;
  canEdit: boolean;
}) {
  const train = useTrainModel(scope);
  const training = model?.training;
  const busy = training?.state === 'queued' || training?.state === 'running' || train.isPending;
  const rows: { name: string; figures: Figures }[] = model?.decisions
    ? [
        { name: 'Keep', figures: model.decisions.keep },
        { name: 'Discard', figures: model.decisions.discard },
        ...model.labels.map((label) => ({ name: label.label === null ? '(no label)' : label.label, figures: label })),
      ]
    : [];
  return (
    <section aria-labelledby="qs-model-title" className="grid gap-3" data-testid="model-panel">
      <div className="flex items-baseline justify-between gap-2">
        <h3 id="qs-model-title" className="font-semibold">
          Suggestions
        </h3>
        {model?.version ? (
          <span className="text-muted-foreground text-xs" data-testid="model-version">
            model v{model.version} · {countOf(model.examples ?? 0, 'review')} · {countOf(model.videos ?? 0, 'video')}
          </span>
        ) : null}
      </div>
      {loading ? null : !model?.version ? (
        <p className="text-muted-foreground text-sm" data-testid="no-model">
          No model yet. One is trained from this project’s reviews of such runs after every{' '}
          {training?.train_after_reviews ?? 50} of them
          {training ? ` (${training.reviews_since_training} so far)` : ''}. Suggestions are shown for classes held out
          at the bar below with at least {MIN_EXAMPLES} examples.
        </p>
      ) : (
        <>
          <Table className="text-xs" data-testid="model-figures">
            <TableHeader>
              <TableRow>
                <TableHead>Class</TableHead>
                <TableHead className="text-right">Precision</TableHead>
                <TableHead className="text-right">Recall</TableHead>
                <TableHead className="text-right">Examples</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map(({ name, figures }) => (
                <TableRow key={name} className={cn(!shown(figures, bar) && 'text-muted-foreground')}>
                  <TableCell>
                    {name}
                    {shown(figures, bar) ? null : <span className="sr-only"> (not suggested)</span>}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{share(figures.precision)}</TableCell>
                  <TableCell className="text-right tabular-nums">{share(figures.recall)}</TableCell>
                  <TableCell className="text-right tabular-nums">{figures.examples}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <p className="text-muted-foreground text-xs">
            Held out by video: each figure comes from a model that never saw that video. Greyed classes are below the
            bar or {MIN_EXAMPLES} examples and are not suggested.
          </p>
          {model.history.length > 1 ? (
            <details className="text-xs" data-testid="model-history">
              <summary className="cursor-pointer text-muted-foreground">
                {countOf(model.history.length, 'version')}
              </summary>
              <ol className="mt-1 grid gap-0.5 tabular-nums">
                {model.history.map((version) => (
                  <li key={version.model_uuid}>
                    v{version.version} · {formatDate(version.trained_at)} · {countOf(version.examples, 'review')} ·
                    discard {share(version.decisions.discard.precision)} / keep{' '}
                    {share(version.decisions.keep.precision)}
                  </li>
                ))}
              </ol>
            </details>
          ) : null}
        </>
      )}
      <div className="flex items-center justify-between gap-2 text-sm">
        <label htmlFor="qs-precision-bar">Show where precision ≥</label>
        <NativeSelect
          id="qs-precision-bar"
          value={String(bar)}
          onChange={(event) => {
            onBar(Number(event.target.value));
            event.target.blur();
          }}
          className="w-24"
          data-testid="precision-bar"
        >
          {barChoices.map((choice) => (
            <option key={choice} value={choice}>
              {choice.toFixed(2)}
            </option>
          ))}
        </NativeSelect>
      </div>
      {training?.error || (training && TRAINING_TEXT[training.state]) ? (
        <p className="text-muted-foreground text-xs" data-testid="training-state">
          {TRAINING_TEXT[training.state]} {training.error}
        </p>
      ) : null}
      {canEdit ? (
        <Button variant="outline" size="sm" onClick={() => train.mutate()} disabled={busy} data-testid="train-now">
          {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <GraduationCap aria-hidden="true" />}
          Train now
        </Button>
      ) : null}
    </section>
  );
}
