import { useQuery } from '@tanstack/react-query';
import { Download, Trash2, Upload } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { errorMessage } from '@/lib/errors';
import { countOf, formatDate } from '@/lib/format';
import { POSE_EXPORTS, type PoseSet, type PoseVideoRef, poseApi, poseQueries } from '../api';
import { useDeletePose } from '../hooks/use-pose-mutations';
import { PoseImportDialog } from './pose-import-dialog';

export const POSE_FORMAT_LABELS: Record<PoseSet['format'], string> = {
  dlc_csv: 'DeepLabCut CSV',
  dlc_h5: 'DeepLabCut .h5',
  sleap_h5: 'SLEAP .h5',
  sleap_csv: 'SLEAP CSV',
};

/** Who the individuals are, in a few words: "single", or "mouse1, mouse2". */
const individualsText = (set: PoseSet) => set.individuals.join(', ');

/**
 * A video's pose sets: what each holds, its exports (DeepLabCut CSV, tidy CSV) and, for members, delete; "Import pose
 * file" opens the import dialog. `actions` adds the page's own links beside the import button.
 */
export function PoseSets({
  videoRef,
  videoName,
  canEdit,
  canImport,
  actions,
}: {
  videoRef: PoseVideoRef;
  videoName: string;
  /** Members of a project that is not locked: delete. */
  canEdit: boolean;
  /** …and, when the project may process (not a draft), import. */
  canImport: boolean;
  actions?: ReactNode;
}) {
  const sets = useQuery(poseQueries.sets(videoRef));
  const [importing, setImporting] = useState(false);
  const [deleting, setDeleting] = useState<PoseSet | null>(null);
  const [exporting, setExporting] = useState<string | null>(null);
  const remove = useDeletePose(videoRef);
  const list = sets.data?.results ?? [];

  const download = async (set: PoseSet, format: (typeof POSE_EXPORTS)[number]['format']) => {
    setExporting(`${set.pose_uuid}:${format}`);
    try {
      await poseApi.exportSet(videoRef, set, format);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setExporting(null);
    }
  };

  return (
    <section aria-label="Pose sets" className="grid grid-cols-1 gap-3" data-testid="pose-sets">
      <div className="flex flex-wrap items-center gap-2">
        {canImport ? (
          <Button size="sm" variant="outline" onClick={() => setImporting(true)}>
            <Upload aria-hidden="true" />
            Import pose file
          </Button>
        ) : null}
        {actions}
      </div>
      {sets.isLoading ? (
        <Skeleton className="h-16" />
      ) : sets.isError ? (
        <p className="text-destructive text-sm">The pose sets could not be loaded: {errorMessage(sets.error)}</p>
      ) : list.length === 0 ? (
        <p className="text-muted-foreground text-sm">
          No pose sets yet: import the keypoints DeepLabCut or SLEAP found in this video.
        </p>
      ) : (
        <div className="overflow-x-auto rounded-md border">
          <Table aria-label="Pose sets of this video">
            <TableHeader>
              <TableRow className="hover:bg-transparent">
                <TableHead>Pose set</TableHead>
                <TableHead>Individuals</TableHead>
                <TableHead className="text-right">Body parts</TableHead>
                <TableHead>Skeleton</TableHead>
                <TableHead className="text-right">
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {list.map((set) => (
                <TableRow key={set.pose_uuid} data-testid="pose-set-row" data-pose={set.pose_uuid}>
                  <TableCell className="max-w-64">
                    <span className="block truncate font-medium" title={set.name}>
                      {set.name}
                    </span>
                    <span className="block truncate text-muted-foreground text-xs">
                      {POSE_FORMAT_LABELS[set.format]}
                      {set.frame_offset ? ` · from frame ${set.frame_offset}` : ''} · {formatDate(set.created_at)}
                    </span>
                  </TableCell>
                  <TableCell className="max-w-40 truncate" title={individualsText(set)}>
                    {individualsText(set)}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{set.bodyparts.length}</TableCell>
                  <TableCell className="text-muted-foreground">
                    {set.edges.length > 0 ? countOf(set.edges.length, 'edge') : 'points only'}
                  </TableCell>
                  <TableCell>
                    <div className="flex justify-end gap-1">
                      {POSE_EXPORTS.map(({ format, label }) => (
                        <Button
                          key={format}
                          variant="ghost"
                          size="sm"
                          disabled={exporting !== null}
                          onClick={() => void download(set, format)}
                          aria-label={`${label} of ${set.name}`}
                        >
                          <Download aria-hidden="true" />
                          {label}
                        </Button>
                      ))}
                      {canEdit ? (
                        <Button
                          variant="ghost"
                          size="icon-sm"
                          className="text-destructive hover:text-destructive"
                          onClick={() => setDeleting(set)}
                          aria-label={`Delete ${set.name}`}
                        >
                          <Trash2 aria-hidden="true" />
                        </Button>
                      ) : null}
                    </div>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      <PoseImportDialog videoRef={videoRef} videoName={videoName} open={importing} onOpenChange={setImporting} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={`Delete “${deleting?.name ?? ''}”?`}
        description={`Its ${countOf(deleting?.keypoints.length ?? 0, 'keypoint')} and file go. Series and positions already derived from it keep what they computed.`}
        confirmLabel="Delete pose set"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting, { onSuccess: () => setDeleting(null) })}
      />
    </section>
  );
}
