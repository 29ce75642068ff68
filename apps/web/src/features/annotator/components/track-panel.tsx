import { useQuery } from '@tanstack/react-query';
import { Download, FileDown, FileUp, Pencil, Plus, Scale, SlidersHorizontal, Trash2, Wand2 } from 'lucide-react';
import { type ChangeEvent, useRef, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { DropdownMenuItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu';
import { RowActionsMenu } from '@/components/ui/row-actions-menu';
import { agreementPath } from '@/features/agreement/links';
import { readTimeRangeCsv } from '@/features/analysis/time-range-csv';
import { useTrashDays } from '@/features/trash/hooks/use-trash-days';
import { trashNotice } from '@/features/trash/trash-text';
import { saveResponse } from '@/lib/download';
import { errorMessage } from '@/lib/errors';
import { countOf, formatDuration } from '@/lib/format';
import { type FieldErrors, serverFieldErrors } from '@/lib/validation';
import { type AnnotationVideoRef, annotationQueries, annotationsApi, type Track, type TrackRanges } from '../api';
import { type Range, totalDuration } from '../bouts';
import { useTrackMutations } from '../hooks/use-track-mutations';
import { FillFromSeriesDialog } from './fill-from-series-dialog';
import { TRACK_COLORS, TrackDialog, type TrackFormValues } from './track-dialog';

interface ImportTarget {
  track: Track;
  file: File;
  count: number;
}

/**
 * The video's tracks: each with its key, bout count and time, and its actions (edit, import or export its CSV,
 * delete); a new track; the project's track set for a video without tracks; the BORIS export of the whole video.
 */
export function TrackPanel({
  videoRef,
  tracks,
  ranges,
  readOnly,
  hasPendingSaves,
  versionOf,
  onImported,
  onDeleted,
}: {
  videoRef: AnnotationVideoRef;
  tracks: readonly Track[];
  ranges: Readonly<Record<string, Range[]>>;
  readOnly: boolean;
  hasPendingSaves: (track: string) => boolean;
  versionOf: (track: string) => number | undefined;
  onImported: (track: string, result: TrackRanges) => void;
  onDeleted: (track: string) => void;
}) {
  const mutations = useTrackMutations(videoRef);
  const trashDays = useTrashDays();
  const presets = useQuery({
    ...annotationQueries.presets(videoRef.projectUuid),
    enabled: tracks.length === 0 && !readOnly,
  });
  const [dialog, setDialog] = useState<{ track: Track | null } | null>(null);
  const [deleting, setDeleting] = useState<Track | null>(null);
  const [importing, setImporting] = useState<ImportTarget | null>(null);
  const [importError, setImportError] = useState<{ track: string; message: string } | null>(null);
  const [importBusy, setImportBusy] = useState(false);
  const [filling, setFilling] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const importFor = useRef<Track | null>(null);

  const save = async (values: TrackFormValues): Promise<FieldErrors> => {
    const track = dialog?.track ?? null;
    try {
      if (track) await mutations.update.mutateAsync({ uuid: track.annotation_config_uuid, changes: values });
      else await mutations.create.mutateAsync(values);
      return {};
    } catch (error) {
      return serverFieldErrors(error);
    }
  };

  const chooseFile = (track: Track) => {
    if (hasPendingSaves(track.annotation_config_uuid)) {
      toast.info(`Wait until the changes to "${track.name}" are saved, then import.`);
      return;
    }
    importFor.current = track;
    setImportError(null);
    fileInput.current?.click();
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0] ?? null;
    event.target.value = '';
    const track = importFor.current;
    if (!track) return;
    // The spec's checks in the browser first (instant, same messages as the server's).
    const checked = await readTimeRangeCsv(file);
    if (!checked.ok || !file) {
      setImportError({ track: track.name, message: checked.ok ? 'CSV is empty' : checked.error });
      return;
    }
    const existing = ranges[track.annotation_config_uuid]?.length ?? 0;
    if (existing > 0) setImporting({ track, file, count: checked.ranges.length });
    else void upload({ track, file, count: checked.ranges.length });
  };

  const upload = async ({ track, file }: ImportTarget) => {
    const uuid = track.annotation_config_uuid;
    const version = versionOf(uuid);
    if (version === undefined) return;
    setImportBusy(true);
    try {
      const result = await annotationsApi.importCsv(videoRef, uuid, file, version);
      onImported(uuid, result);
      toast.success(`Imported ${countOf(result.ranges.length, 'bout')} into "${track.name}".`);
    } catch (error) {
      setImportError({ track: track.name, message: errorMessage(error) });
    } finally {
      setImportBusy(false);
      setImporting(null);
    }
  };

  const exportCsv = async (track: Track) => {
    try {
      await saveResponse(await annotationsApi.exportCsv(videoRef, track.annotation_config_uuid), `${track.name}.csv`);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };

  const exportBoris = async () => {
    try {
      await saveResponse(await annotationsApi.exportBoris(videoRef), 'annotations-boris.tsv');
    } catch (error) {
      toast.error(errorMessage(error));
    }
  };

  const presetTracks = presets.data?.tracks ?? [];
  const nextColor = TRACK_COLORS[tracks.length % TRACK_COLORS.length]!;

  return (
    <section aria-labelledby="tracks-heading" className="grid grid-cols-1 content-start gap-3">
      <div className="flex items-center gap-2">
        <h2 id="tracks-heading" className="font-semibold text-base">
          Tracks
        </h2>
        <Button variant="ghost" size="sm" className="ml-auto" onClick={exportBoris} disabled={tracks.length === 0}>
          <Download aria-hidden="true" />
          BORIS (TSV)
        </Button>
      </div>

      {tracks.length === 0 ? (
        <p className="text-muted-foreground text-sm">
          {readOnly
            ? 'This video has no annotation tracks yet.'
            : 'No tracks yet. Add one for each behaviour you score (grooming, rearing…), each with its own key.'}
        </p>
      ) : (
        <ul className="grid grid-cols-1 gap-1.5" aria-label="Annotation tracks">
          {tracks.map((track) => {
            const list = ranges[track.annotation_config_uuid] ?? [];
            return (
              <li
                key={track.annotation_config_uuid}
                className="flex items-center gap-2 rounded-lg border px-2.5 py-1.5"
                data-testid="track-row"
              >
                <span className="size-3.5 shrink-0 rounded-sm" style={{ backgroundColor: track.color }} />
                <div className="min-w-0 flex-1">
                  <p className="truncate font-medium text-sm">{track.name}</p>
                  <p className="text-muted-foreground text-xs tabular-nums" data-testid="track-figures">
                    {countOf(list.length, 'bout')} · {formatDuration(totalDuration(list))}
                  </p>
                </div>
                {track.hotkey ? (
                  <kbd
                    className="rounded border bg-muted px-1.5 font-mono text-xs uppercase"
                    title={`Press ${track.hotkey.toUpperCase()} to start and end a bout`}
                  >
                    {track.hotkey}
                  </kbd>
                ) : null}
                <RowActionsMenu name={track.name} size="icon">
                  {readOnly ? null : (
                    <>
                      <DropdownMenuItem onSelect={() => setDialog({ track })}>
                        <Pencil aria-hidden="true" />
                        Edit name, key, colour
                      </DropdownMenuItem>
                      <DropdownMenuItem onSelect={() => chooseFile(track)}>
                        <FileUp aria-hidden="true" />
                        Import CSV…
                      </DropdownMenuItem>
                    </>
                  )}
                  <DropdownMenuItem onSelect={() => void exportCsv(track)}>
                    <FileDown aria-hidden="true" />
                    Export CSV
                  </DropdownMenuItem>
                  <DropdownMenuItem asChild>
                    <Link
                      to={agreementPath(videoRef.projectUuid, {
                        subject: videoRef.subjectUuid,
                        video: videoRef.videoUuid,
                        reference: { kind: 'track', trackUuid: track.annotation_config_uuid },
                      })}
                    >
                      <Scale aria-hidden="true" />
                      Agreement with another scoring
                    </Link>
                  </DropdownMenuItem>
                  {readOnly ? null : (
                    <>
                      <DropdownMenuSeparator />
                      <DropdownMenuItem variant="destructive" onSelect={() => setDeleting(track)}>
                        <Trash2 aria-hidden="true" />
                        Delete track
                      </DropdownMenuItem>
                    </>
                  )}
                </RowActionsMenu>
              </li>
            );
          })}
        </ul>
      )}

      {importError ? (
        <Alert variant="destructive" data-testid="import-error">
          <AlertTitle>"{importError.track}" was not imported</AlertTitle>
          <AlertDescription>{importError.message}</AlertDescription>
        </Alert>
      ) : null}

      {readOnly ? null : (
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={() => setDialog({ track: null })}>
            <Plus aria-hidden="true" />
            New track
          </Button>
          <Button variant="outline" size="sm" onClick={() => setFilling(true)}>
            <SlidersHorizontal aria-hidden="true" />
            Fill from a series…
          </Button>
          {tracks.length === 0 && presetTracks.length > 0 ? (
            <Button
              size="sm"
              onClick={() => mutations.applyPresets.mutate()}
              disabled={mutations.applyPresets.isPending}
              title={presetTracks.map((p) => p.name).join(', ')}
            >
              <Wand2 aria-hidden="true" />
              Use the project’s tracks ({presetTracks.length})
            </Button>
          ) : null}
        </div>
      )}
      {tracks.length === 0 && presetTracks.length > 0 && !readOnly ? (
        <p className="text-muted-foreground text-xs">
          Used on other videos: {presetTracks.map((p) => (p.hotkey ? `${p.name} (${p.hotkey})` : p.name)).join(', ')}
        </p>
      ) : null}

      <input
        ref={fileInput}
        type="file"
        accept=".csv,text/csv"
        className="hidden"
        data-testid="track-import-input"
        onChange={onFile}
      />
      <FillFromSeriesDialog
        videoRef={videoRef}
        tracks={tracks}
        ranges={ranges}
        versionOf={versionOf}
        hasPendingSaves={hasPendingSaves}
        open={filling}
        onOpenChange={setFilling}
        onFilled={onImported}
      />
      <TrackDialog
        open={dialog !== null}
        onOpenChange={(open) => !open && setDialog(null)}
        track={dialog?.track ?? null}
        others={tracks.filter((t) => t.annotation_config_uuid !== dialog?.track?.annotation_config_uuid)}
        defaultColor={nextColor}
        pending={mutations.create.isPending || mutations.update.isPending}
        onSubmit={save}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={`Delete "${deleting?.name}"?`}
        description={`The track and its ${countOf(ranges[deleting?.annotation_config_uuid ?? '']?.length ?? 0, 'bout')} leave for everyone. ${trashNotice(trashDays)}`}
        confirmLabel="Delete track"
        pending={mutations.remove.isPending}
        onConfirm={() => {
          const track = deleting;
          if (!track) return;
          mutations.remove.mutate(track.annotation_config_uuid, {
            onSuccess: () => {
              onDeleted(track.annotation_config_uuid);
              setDeleting(null);
            },
          });
        }}
      />
      <ConfirmDialog
        open={importing !== null}
        onOpenChange={(open) => !open && setImporting(null)}
        title={`Replace the bouts of "${importing?.track.name}"?`}
        description={`The ${countOf(importing?.count ?? 0, 'bout')} of ${importing?.file.name ?? 'the file'} replace the track’s ${countOf(ranges[importing?.track.annotation_config_uuid ?? '']?.length ?? 0, 'bout')}. Ctrl/⌘+Z undoes it.`}
        confirmLabel="Replace bouts"
        pending={importBusy}
        onConfirm={() => importing && void upload(importing)}
      />
    </section>
  );
}
