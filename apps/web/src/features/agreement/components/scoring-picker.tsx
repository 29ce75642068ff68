import { useQuery } from '@tanstack/react-query';
import { FileUp } from 'lucide-react';
import { useMemo, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/select';
import { type AnalysisRun, analysisQueries, type VideoRef } from '@/features/analysis/api';
import { runCountsLabel } from '@/features/analysis/event-counts';
import { KIND_LABELS } from '@/features/analysis/labels';
import type { Track } from '@/features/annotator/api';
import { countOf, formatDate } from '@/lib/format';
import { SCORING_KIND_LABELS, type Scoring, type ScoringKind } from '../scorings';
import { readScoringCsv } from '../uploads';
import { ScorerField } from './scorer-field';

const ALL_KINDS: ScoringKind[] = ['run_reviewed', 'run_detected', 'scorer', 'track', 'upload'];

/**
 * Picks one scoring of the video: a run (as detected, or as reviewed with an optional label), an annotation track, or
 * a CSV of event times or ranges read in the browser (the spec's time-range messages for ranges).
 */
export function ScoringPicker({
  id,
  title,
  videoRef,
  scoring,
  onChange,
  runs,
  tracks,
  kinds = ALL_KINDS,
  errors,
}: {
  id: string;
  title: string;
  videoRef: VideoRef;
  scoring: Scoring;
  onChange: (scoring: Scoring) => void;
  /** The video's runs; only finished ones are offered. */
  runs: readonly AnalysisRun[];
  tracks: readonly Track[];
  kinds?: ScoringKind[];
  /** The server's messages for this side (`reference.…`), by field. */
  errors?: string[];
}) {
  const isRun = scoring.kind === 'run_detected' || scoring.kind === 'run_reviewed' || scoring.kind === 'scorer';
  // The video's runs (the list the Movement Detector follows while runs are working): the finished ones have events.
  const finished = runs.filter((run) => run.status === 'succeeded');
  const events = useQuery({
    ...analysisQueries.events(videoRef, scoring.analysisUuid ?? ''),
    enabled: scoring.kind === 'run_reviewed' && Boolean(scoring.analysisUuid),
  });
  const labels = useMemo(() => {
    const found = new Set<string>();
    for (const event of events.data?.events ?? []) if (event.label && !event.discarded) found.add(event.label);
    return [...found].sort((a, b) => a.localeCompare(b));
  }, [events.data]);
  const fileInput = useRef<HTMLInputElement>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);

  const chooseKind = (kind: ScoringKind) => {
    setUploadError(null);
    const keepRun = kind === 'run_detected' || kind === 'run_reviewed' || kind === 'scorer';
    onChange({ kind, analysisUuid: keepRun ? (scoring.analysisUuid ?? null) : null });
  };

  const onFile = async (file: File | undefined) => {
    const result = await readScoringCsv(file ?? null);
    if (fileInput.current) fileInput.current.value = '';
    if (!result.ok) {
      setUploadError(result.error);
      return;
    }
    setUploadError(null);
    onChange({ kind: 'upload', upload: result.scoring });
  };

  const upload = scoring.kind === 'upload' ? scoring.upload : null;
  return (
    <fieldset
      className="grid min-w-0 grid-cols-1 content-start gap-3 rounded-lg border p-3"
      data-testid={`${id}-picker`}
    >
      <legend className="px-1 font-medium text-sm">{title}</legend>
      <Field id={`${id}-kind`} label="Scoring">
        <NativeSelect
          id={`${id}-kind`}
          value={scoring.kind}
          onChange={(e) => chooseKind(e.target.value as ScoringKind)}
        >
          {kinds.map((kind) => (
            <option key={kind} value={kind}>
              {SCORING_KIND_LABELS[kind]}
            </option>
          ))}
        </NativeSelect>
      </Field>
      {isRun ? (
        <Field id={`${id}-run`} label="Run">
          <NativeSelect
            id={`${id}-run`}
            value={scoring.analysisUuid ?? ''}
            onChange={(e) => onChange({ kind: scoring.kind, analysisUuid: e.target.value || null })}
          >
            <option value="">{finished.length === 0 ? 'No finished run on this video' : 'Choose a run'}</option>
            {finished.map((run) => (
              <option key={run.analysis_uuid} value={run.analysis_uuid}>
                {formatDate(run.created_at)} · {KIND_LABELS[run.kind]} · {runCountsLabel(run)}
              </option>
            ))}
          </NativeSelect>
        </Field>
      ) : null}
      {scoring.kind === 'run_reviewed' && scoring.analysisUuid ? (
        <Field id={`${id}-label`} label="Label" description="Discarded events are left out.">
          <NativeSelect
            id={`${id}-label`}
            value={scoring.label ?? ''}
            onChange={(e) => onChange({ ...scoring, label: e.target.value || null })}
          >
            <option value="">All labels</option>
            {labels.map((label) => (
              <option key={label} value={label}>
                {label}
              </option>
            ))}
          </NativeSelect>
        </Field>
      ) : null}
      {scoring.kind === 'scorer' && scoring.analysisUuid ? (
        <ScorerField
          id={`${id}-scorer`}
          videoRef={videoRef}
          analysisUuid={scoring.analysisUuid}
          userId={scoring.userId ?? null}
          onChange={(userId) => onChange({ ...scoring, userId })}
        />
      ) : null}
      {scoring.kind === 'track' ? (
        <Field id={`${id}-track`} label="Track" description="Its bouts; as events, their starts.">
          <NativeSelect
            id={`${id}-track`}
            value={scoring.trackUuid ?? ''}
            onChange={(e) => onChange({ kind: 'track', trackUuid: e.target.value || null })}
          >
            <option value="">{tracks.length === 0 ? 'No annotation track on this video' : 'Choose a track'}</option>
            {tracks.map((track) => (
              <option key={track.annotation_config_uuid} value={track.annotation_config_uuid}>
                {track.name} · {countOf(track.range_count, 'bout')}
              </option>
            ))}
          </NativeSelect>
        </Field>
      ) : null}
      {scoring.kind === 'upload' ? (
        <div className="grid grid-cols-1 gap-2">
          <div className="flex flex-wrap items-center gap-2">
            <Button variant="outline" size="sm" onClick={() => fileInput.current?.click()}>
              <FileUp aria-hidden="true" />
              Choose a CSV…
            </Button>
            <span className="text-muted-foreground text-xs" data-testid={`${id}-upload`}>
              {upload
                ? `${upload.fileName}: ${upload.ranges ? countOf(upload.ranges.length, 'range') : countOf(upload.events?.length ?? 0, 'event')}`
                : 'Event times (one a row) or ranges (start,end)'}
            </span>
          </div>
          <input
            ref={fileInput}
            type="file"
            accept=".csv,text/csv"
            className="hidden"
            aria-label={`${title}: CSV file`}
            onChange={(e) => void onFile(e.target.files?.[0])}
          />
        </div>
      ) : null}
      {uploadError || errors?.length ? (
        <p role="alert" className="text-destructive text-xs">
          {[uploadError, ...(errors ?? [])].filter(Boolean).join(' ')}
        </p>
      ) : null}
    </fieldset>
  );
}
