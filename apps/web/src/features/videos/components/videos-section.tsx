import { useQuery } from '@tanstack/react-query';
import { Bone, Film, Pencil, PlayCircle, Upload } from 'lucide-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { BulkDeleteBar, DeleteRowsDialog } from '@/components/data-table/bulk-delete';
import { DataTable, type DataTableColumn } from '@/components/data-table/data-table';
import { useDataTable } from '@/components/data-table/use-data-table';
import { usePlayer } from '@/components/player/player-controller';
import { PlayerControls } from '@/components/player/player-controls';
import { transportKeys } from '@/components/player/player-keys';
import { VideoPlayer } from '@/components/player/video-player';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { DropdownMenuItem } from '@/components/ui/dropdown-menu';
import { Skeleton } from '@/components/ui/skeleton';
import { PoseImportDialog } from '@/features/pose/components/pose-import-dialog';
import { PoseSets } from '@/features/pose/components/pose-sets';
import { usePoseOverlay } from '@/features/pose/hooks/use-pose-overlay';
import { posePath } from '@/features/pose/links';
import { useTrashDays } from '@/features/trash/hooks/use-trash-days';
import { trashNotice } from '@/features/trash/trash-text';
import { formatBytes, formatDuration, formatFps, formatResolution } from '@/lib/format';
import { patchSearchParams } from '@/lib/search-params';
import { cn } from '@/lib/utils';
import { type Video, videoQueries } from '../api';
import { useDeleteVideos } from '../hooks/use-video-mutations';
import { useVideoUploads } from '../hooks/use-video-uploads';
import { playerFacts, playerSource } from '../player-source';
import { RenameVideoDialog } from './rename-video-dialog';
import { UploadList, VideoDropzone } from './video-dropzone';
import { VideoStatusBadge } from './video-status-badge';
import { VideoToolActions } from './video-tool-actions';

const videoKey = (video: Video) => video.video_uuid;

export function VideosSection({
  projectUuid,
  subjectUuid,
  readOnly,
  canBulkDelete = false,
  uploadBlockedReason,
}: {
  projectUuid: string;
  subjectUuid: string;
  /** No renaming or deleting (viewers, locked projects). */
  readOnly?: boolean;
  /** Select several videos and delete them at once (owners and admins). */
  canBulkDelete?: boolean;
  /** Why a member cannot upload now (a draft or locked project): said in place of the drop zone. */
  uploadBlockedReason?: string | null;
}) {
  const { data, isLoading, isError } = useQuery(videoQueries.list(projectUuid, subjectUuid, { page_size: 500 }));
  const videos = data?.results ?? [];
  const uploads = useVideoUploads(projectUuid, subjectUuid);
  const [params, setParams] = useSearchParams();
  const selectedUuid = params.get('video');
  const current = videos.find((v) => v.video_uuid === selectedUuid) ?? null;
  const table = useDataTable(videos, videoKey);
  const [renaming, setRenaming] = useState<Video | null>(null);
  const [importingPose, setImportingPose] = useState<Video | null>(null);
  // Importing a pose file is processing (a draft project waits); deleting one is a change.
  const canImportPose = !readOnly && !uploadBlockedReason;
  const remove = useDeleteVideos(projectUuid, subjectUuid);
  const trashDays = useTrashDays();

  const open = (video: Video) =>
    setParams((prev) => patchSearchParams(prev, { video: video.video_uuid }), { replace: true });

  const columns: DataTableColumn<Video>[] = [
    {
      id: 'video',
      header: 'Video',
      cell: (video) => (
        <button
          type="button"
          onClick={() => open(video)}
          className="group flex max-w-72 items-center gap-3 rounded-md text-left outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
          aria-label={`Open ${video.name}`}
        >
          <span className="relative flex h-10 w-16 shrink-0 items-center justify-center overflow-hidden rounded-md bg-muted">
            {video.thumbnail_url ? (
              <img src={video.thumbnail_url} alt="" className="size-full object-cover" />
            ) : (
              <Film className="size-4 text-muted-foreground" aria-hidden="true" />
            )}
            <PlayCircle
              className={cn(
                'absolute size-5 text-white opacity-0 drop-shadow transition-opacity group-hover:opacity-100',
                video.status !== 'ready' && 'hidden',
              )}
              aria-hidden="true"
            />
          </span>
          <span className="min-w-0">
            <span className="block truncate font-medium group-hover:underline">{video.name}</span>
            <span className="block truncate text-muted-foreground text-xs">{video.original_filename}</span>
          </span>
        </button>
      ),
    },
    {
      id: 'duration',
      header: 'Duration',
      className: 'text-right',
      cellClassName: 'font-mono tabular-nums',
      cellTestId: 'video-duration',
      cell: (video) => formatDuration(video.duration_s),
    },
    // The optional columns follow the card's width (the @container around the table), not the window's.
    {
      id: 'size',
      header: 'Size',
      className: '@3xl:table-cell hidden text-right',
      cellClassName: 'tabular-nums',
      cell: (video) => formatBytes(video.size_bytes),
    },
    {
      id: 'fps',
      header: 'Frame rate',
      className: '@4xl:table-cell hidden text-right',
      cellClassName: 'tabular-nums',
      cell: (video) => formatFps(video.fps),
    },
    {
      id: 'resolution',
      header: 'Resolution',
      className: '@5xl:table-cell hidden text-right',
      cellClassName: 'tabular-nums',
      cell: (video) => formatResolution(video.width, video.height),
    },
    {
      id: 'status',
      header: 'Status',
      cell: (video) => <VideoStatusBadge status={video.status} title={video.error ?? undefined} />,
    },
  ];

  // Layout (issue 20): every grid track here is minmax(0, 1fr), so the table can never widen its card, and the
  // optional columns follow the card's own width (a container query), not the window's — beside the subject's
  // details at 1,400 px the card is narrow though the window is wide.
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      {current ? (
        current.status === 'ready' ? (
          <>
            <SubjectVideoPlayer key={current.video_uuid} projectUuid={projectUuid} video={current} />
            <Card className="gap-4">
              <CardHeader>
                <CardTitle>Pose</CardTitle>
                <CardDescription>
                  Keypoints of {current.name} from DeepLabCut or SLEAP, drawn on the player above.
                </CardDescription>
              </CardHeader>
              <CardContent>
                <PoseSets
                  videoRef={{ projectUuid, subjectUuid, videoUuid: current.video_uuid }}
                  videoName={current.name}
                  canEdit={!readOnly}
                  canImport={canImportPose}
                  actions={
                    <Button asChild size="sm" variant="ghost">
                      <Link to={posePath(projectUuid, { subject: subjectUuid, video: current.video_uuid })}>
                        <Bone aria-hidden="true" />
                        Analyse pose
                      </Link>
                    </Button>
                  }
                />
              </CardContent>
            </Card>
          </>
        ) : (
          <Card>
            <CardContent className="flex items-center gap-3 py-2 text-sm">
              <VideoStatusBadge status={current.status} />
              {current.status === 'failed'
                ? current.error || 'This video could not be processed.'
                : 'The player opens when the video is ready.'}
            </CardContent>
          </Card>
        )
      ) : null}

      <Card>
        <CardHeader>
          <CardTitle>Videos</CardTitle>
          <CardDescription>Recordings of this subject. Select one to play it.</CardDescription>
        </CardHeader>
        <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-4">
          {!readOnly && uploadBlockedReason ? (
            <p
              className="rounded-lg border border-dashed p-4 text-muted-foreground text-sm"
              data-testid="upload-blocked"
            >
              {uploadBlockedReason}
            </p>
          ) : !readOnly ? (
            <>
              <VideoDropzone onFiles={(files) => files.forEach(uploads.start)} />
              <UploadList
                items={uploads.items}
                videos={videos}
                onCancel={uploads.cancel}
                onDismiss={uploads.dismiss}
                onRetry={uploads.retry}
              />
            </>
          ) : null}

          <BulkDeleteBar table={table} enabled={canBulkDelete} variant="banner" />

          {isLoading ? (
            <div className="grid grid-cols-1 gap-2">
              <Skeleton className="h-14" />
              <Skeleton className="h-14" />
            </div>
          ) : isError ? (
            <p className="text-muted-foreground text-sm">The videos could not be loaded.</p>
          ) : videos.length === 0 ? (
            <div className="flex flex-col items-center gap-1 py-6 text-center">
              <Film className="size-6 text-muted-foreground" aria-hidden="true" />
              <p className="font-medium text-sm">No videos yet</p>
              <p className="text-muted-foreground text-xs">Uploaded videos appear here while they are processed.</p>
            </div>
          ) : (
            <div className="@container -mx-6 border-t" data-testid="videos-table">
              <DataTable
                label="Videos"
                rows={videos}
                rowKey={videoKey}
                rowName={(video) => video.name}
                columns={columns}
                table={table}
                selectable={canBulkDelete}
                selectAllLabel="Select all videos"
                rowMenu={(video) => (
                  <>
                    <DropdownMenuItem onSelect={() => open(video)} disabled={video.status !== 'ready'}>
                      <PlayCircle aria-hidden="true" />
                      Play
                    </DropdownMenuItem>
                    {!readOnly ? (
                      <DropdownMenuItem onSelect={() => setRenaming(video)}>
                        <Pencil aria-hidden="true" />
                        Rename
                      </DropdownMenuItem>
                    ) : null}
                    {canImportPose ? (
                      <DropdownMenuItem onSelect={() => setImportingPose(video)} disabled={video.status !== 'ready'}>
                        <Upload aria-hidden="true" />
                        Import pose file
                      </DropdownMenuItem>
                    ) : null}
                  </>
                )}
                onDelete={!readOnly}
                rowActions={(video) => (
                  <VideoToolActions
                    projectUuid={projectUuid}
                    subjectUuid={subjectUuid}
                    videoUuid={video.video_uuid}
                    videoName={video.name}
                  />
                )}
                isRowCurrent={(video) => video.video_uuid === selectedUuid}
                rowTestId="video-row"
                actionsTestId="video-actions"
                inset="card-content"
              />
            </div>
          )}
        </CardContent>
      </Card>

      <DeleteRowsDialog
        table={table}
        noun={{ one: 'video', many: 'videos' }}
        consequence={(count) =>
          `The original file, its playback copy and its analyses go together. ${trashNotice(trashDays, count)}`
        }
        pending={remove.isPending}
        onConfirm={(keys) =>
          remove.mutate([...keys], {
            onSuccess: () => {
              if (selectedUuid && keys.includes(selectedUuid)) {
                setParams((prev) => patchSearchParams(prev, { video: null }), { replace: true });
              }
              table.deleted();
            },
          })
        }
      />
      {importingPose ? (
        <PoseImportDialog
          videoRef={{ projectUuid, subjectUuid, videoUuid: importingPose.video_uuid }}
          videoName={importingPose.name}
          open
          onOpenChange={(open) => !open && setImportingPose(null)}
          // The new set shows under the video's player, drawn on it: open the video there.
          onImported={() => open(importingPose)}
        />
      ) : null}
      <RenameVideoDialog
        projectUuid={projectUuid}
        subjectUuid={subjectUuid}
        video={renaming}
        onClose={() => setRenaming(null)}
      />
    </div>
  );
}

/**
 * The subject page's player: free play with the seek bar and the usual keys (Space, arrows, Home); the pose panel
 * under the controls when the video has pose sets (the page's column is narrow: the picture keeps its width).
 */
function SubjectVideoPlayer({ projectUuid, video }: { projectUuid: string; video: Video }) {
  const player = usePlayer(playerFacts(video));
  const pose = usePoseOverlay({ projectUuid, video, player });
  return (
    <VideoPlayer
      player={player}
      source={playerSource(video)}
      onKeyDown={transportKeys(player)}
      marks={pose.layer}
      controls={
        <>
          <PlayerControls player={player} id={`rate-${video.video_uuid}`} seekBar />
          {pose.panel ? <div className="border-t px-4 py-3">{pose.panel}</div> : null}
        </>
      }
    />
  );
}
