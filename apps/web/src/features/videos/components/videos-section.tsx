import { useQuery } from '@tanstack/react-query';
import { Film, MoreHorizontal, Pencil, PlayCircle, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { usePlayer } from '@/components/player/player-controller';
import { PlayerControls } from '@/components/player/player-controls';
import { transportKeys } from '@/components/player/player-keys';
import { VideoPlayer } from '@/components/player/video-player';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
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
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [toDelete, setToDelete] = useState<string[] | null>(null);
  const [renaming, setRenaming] = useState<Video | null>(null);
  const remove = useDeleteVideos(projectUuid, subjectUuid);
  const trashDays = useTrashDays();

  useEffect(() => {
    const present = new Set(videos.map((v) => v.video_uuid));
    setChecked((prev) => {
      const next = new Set([...prev].filter((id) => present.has(id)));
      return next.size === prev.size ? prev : next;
    });
  }, [videos]);

  const open = (video: Video) =>
    setParams((prev) => patchSearchParams(prev, { video: video.video_uuid }), { replace: true });

  const allChecked = videos.length > 0 && videos.every((v) => checked.has(v.video_uuid));

  // Layout (issue 20): every grid track here is minmax(0, 1fr), so the table can never widen its card, and the
  // optional columns follow the card's own width (a container query), not the window's — beside the subject's
  // details at 1,400 px the card is narrow though the window is wide.
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6">
      {current ? (
        current.status === 'ready' ? (
          <SubjectVideoPlayer key={current.video_uuid} video={current} />
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

          {checked.size > 0 && canBulkDelete ? (
            <div className="flex items-center justify-between gap-2 rounded-lg bg-muted/50 px-3 py-2 text-sm">
              <span aria-live="polite">{checked.size} selected</span>
              <Button variant="destructive" size="sm" onClick={() => setToDelete([...checked])}>
                <Trash2 aria-hidden="true" />
                Delete selected
              </Button>
            </div>
          ) : null}

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
              <Table aria-label="Videos">
                <TableHeader>
                  <TableRow className="hover:bg-transparent">
                    <TableHead className="w-10 pl-6">
                      <Checkbox
                        aria-label="Select all videos"
                        disabled={!canBulkDelete}
                        className={canBulkDelete ? undefined : 'invisible'}
                        checked={allChecked ? true : checked.size > 0 ? 'indeterminate' : false}
                        onCheckedChange={(value) =>
                          setChecked(value === true ? new Set(videos.map((v) => v.video_uuid)) : new Set())
                        }
                      />
                    </TableHead>
                    <TableHead>Video</TableHead>
                    <TableHead className="text-right">Duration</TableHead>
                    <TableHead className="@3xl:table-cell hidden text-right">Size</TableHead>
                    <TableHead className="@4xl:table-cell hidden text-right">Frame rate</TableHead>
                    <TableHead className="@5xl:table-cell hidden text-right">Resolution</TableHead>
                    <TableHead>Status</TableHead>
                    <TableHead className="w-12 pr-6" data-testid="video-actions-head">
                      <span className="sr-only">Actions</span>
                    </TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {videos.map((video) => (
                    <TableRow
                      key={video.video_uuid}
                      data-state={
                        checked.has(video.video_uuid) || video.video_uuid === selectedUuid ? 'selected' : undefined
                      }
                      data-testid="video-row"
                    >
                      <TableCell className="pl-6">
                        <Checkbox
                          aria-label={`Select ${video.name}`}
                          disabled={!canBulkDelete}
                          className={canBulkDelete ? undefined : 'invisible'}
                          checked={checked.has(video.video_uuid)}
                          onCheckedChange={(value) =>
                            setChecked((prev) => {
                              const next = new Set(prev);
                              if (value === true) next.add(video.video_uuid);
                              else next.delete(video.video_uuid);
                              return next;
                            })
                          }
                        />
                      </TableCell>
                      <TableCell>
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
                            <span className="block truncate text-muted-foreground text-xs">
                              {video.original_filename}
                            </span>
                          </span>
                        </button>
                      </TableCell>
                      <TableCell className="text-right font-mono tabular-nums" data-testid="video-duration">
                        {formatDuration(video.duration_s)}
                      </TableCell>
                      <TableCell className="@3xl:table-cell hidden text-right tabular-nums">
                        {formatBytes(video.size_bytes)}
                      </TableCell>
                      <TableCell className="@4xl:table-cell hidden text-right tabular-nums">
                        {formatFps(video.fps)}
                      </TableCell>
                      <TableCell className="@5xl:table-cell hidden text-right tabular-nums">
                        {formatResolution(video.width, video.height)}
                      </TableCell>
                      <TableCell>
                        <VideoStatusBadge status={video.status} title={video.error ?? undefined} />
                      </TableCell>
                      <TableCell className="pr-6" data-testid="video-actions">
                        <div className="flex items-center justify-end gap-0.5">
                          <VideoToolActions
                            projectUuid={projectUuid}
                            subjectUuid={subjectUuid}
                            videoUuid={video.video_uuid}
                            videoName={video.name}
                          />
                          <DropdownMenu>
                            <DropdownMenuTrigger asChild>
                              <Button variant="ghost" size="icon-sm" aria-label={`Actions for ${video.name}`}>
                                <MoreHorizontal aria-hidden="true" />
                              </Button>
                            </DropdownMenuTrigger>
                            <DropdownMenuContent align="end">
                              <DropdownMenuItem onSelect={() => open(video)} disabled={video.status !== 'ready'}>
                                <PlayCircle aria-hidden="true" />
                                Play
                              </DropdownMenuItem>
                              {!readOnly ? (
                                <>
                                  <DropdownMenuItem onSelect={() => setRenaming(video)}>
                                    <Pencil aria-hidden="true" />
                                    Rename
                                  </DropdownMenuItem>
                                  <DropdownMenuSeparator />
                                  <DropdownMenuItem
                                    variant="destructive"
                                    onSelect={() => setToDelete([video.video_uuid])}
                                  >
                                    <Trash2 aria-hidden="true" />
                                    Delete
                                  </DropdownMenuItem>
                                </>
                              ) : null}
                            </DropdownMenuContent>
                          </DropdownMenu>
                        </div>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
          )}
        </CardContent>
      </Card>

      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(value) => !value && setToDelete(null)}
        title={toDelete && toDelete.length > 1 ? `Delete ${toDelete.length} videos?` : 'Delete this video?'}
        description={`The original file, its playback copy and its analyses go together. ${trashNotice(trashDays, toDelete?.length ?? 1)}`}
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={() =>
          toDelete &&
          remove.mutate(toDelete, {
            onSuccess: () => {
              if (selectedUuid && toDelete.includes(selectedUuid)) {
                setParams((prev) => patchSearchParams(prev, { video: null }), { replace: true });
              }
              setToDelete(null);
              setChecked(new Set());
            },
          })
        }
      />
      <RenameVideoDialog
        projectUuid={projectUuid}
        subjectUuid={subjectUuid}
        video={renaming}
        onClose={() => setRenaming(null)}
      />
    </div>
  );
}

/** The subject page's player: free play with the seek bar and the usual keys (Space, arrows, Home). */
function SubjectVideoPlayer({ video }: { video: Video }) {
  const player = usePlayer(playerFacts(video));
  return (
    <VideoPlayer
      player={player}
      source={playerSource(video)}
      onKeyDown={transportKeys(player)}
      controls={<PlayerControls player={player} id={`rate-${video.video_uuid}`} seekBar />}
    />
  );
}
