import { CircleCheck, CircleX, FileVideo, RotateCcw, UploadCloud, X } from 'lucide-react';
import { type DragEvent, useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Progress } from '@/components/ui/progress';
import { formatBytes } from '@/lib/format';
import { cn } from '@/lib/utils';
import type { Video } from '../api';
import { isVideoFile, type UploadItem, VIDEO_EXTENSIONS } from '../hooks/use-video-uploads';

/** Drop several videos (or browse); each file gets its own progress bar. */
export function VideoDropzone({ onFiles, disabled }: { onFiles: (files: File[]) => void; disabled?: boolean }) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  const accept = (files: File[]) => {
    const videos = files.filter(isVideoFile);
    const rejected = files.length - videos.length;
    if (rejected > 0)
      toast.error(`${rejected} file${rejected === 1 ? ' is' : 's are'} not a video (${VIDEO_EXTENSIONS.join(' ')}).`);
    if (videos.length) onFiles(videos);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (!disabled) accept([...event.dataTransfer.files]);
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the drop target wraps a real button and file input.
    <div
      onDragOver={(e) => {
        e.preventDefault();
        if (!disabled) setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      data-dragging={over || undefined}
      className={cn(
        'flex flex-col items-center justify-center gap-3 rounded-xl border-2 border-dashed px-6 py-8 text-center transition-colors',
        over ? 'border-primary bg-primary/5' : 'border-border bg-muted/20',
        disabled && 'opacity-60',
      )}
    >
      <span className="flex size-11 items-center justify-center rounded-full bg-primary/10 text-primary">
        <UploadCloud className="size-5" aria-hidden="true" />
      </span>
      <div className="space-y-1">
        <p className="font-medium text-sm">Drop videos here</p>
        <p className="text-muted-foreground text-xs">
          MP4, MOV, AVI, MKV, WMV or FLV. Large files upload in resumable chunks.
        </p>
      </div>
      <label htmlFor={inputId} className="sr-only">
        Video files
      </label>
      <input
        id={inputId}
        ref={inputRef}
        type="file"
        multiple
        accept={`video/*,${VIDEO_EXTENSIONS.join(',')}`}
        className="sr-only"
        tabIndex={-1}
        disabled={disabled}
        onChange={(e) => {
          accept([...(e.target.files ?? [])]);
          e.target.value = '';
        }}
      />
      <Button variant="outline" size="sm" onClick={() => inputRef.current?.click()} disabled={disabled}>
        Browse files
      </Button>
    </div>
  );
}

/** What a finished upload's card says: its video row's status, as the table shows it beside. */
function doneText(row: Pick<Video, 'status' | 'error'> | undefined): string {
  if (!row || row.status === 'uploading' || row.status === 'processing') return 'Uploaded — processing';
  return row.status === 'ready' ? 'Uploaded — ready' : 'Uploaded — processing failed';
}

export function UploadList({
  items,
  videos,
  onCancel,
  onDismiss,
  onRetry,
}: {
  items: UploadItem[];
  /** The subject's videos: a finished upload follows its row's status. */
  videos: readonly Pick<Video, 'video_uuid' | 'status' | 'error'>[];
  onCancel: (id: string) => void;
  onDismiss: (id: string) => void;
  onRetry: (id: string) => void;
}) {
  if (items.length === 0) return null;
  return (
    <ul className="grid grid-cols-1 gap-2" aria-label="Uploads">
      {items.map((item) => {
        const percent = item.total > 0 ? Math.round((item.loaded / item.total) * 100) : 0;
        const row = item.videoUuid ? videos.find((v) => v.video_uuid === item.videoUuid) : undefined;
        return (
          <li
            key={item.id}
            className="flex items-center gap-3 rounded-lg border bg-card p-3"
            data-testid="upload-item"
            data-status={item.status}
            data-video-status={row?.status}
          >
            <FileVideo className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
            <div className="min-w-0 flex-1 space-y-1.5">
              <div className="flex items-center justify-between gap-2 text-sm">
                <span className="truncate font-medium">{item.file.name}</span>
                <span className="shrink-0 text-muted-foreground text-xs tabular-nums">
                  {item.status === 'uploading'
                    ? `${percent}% of ${formatBytes(item.total)}`
                    : item.status === 'done'
                      ? doneText(row)
                      : item.status === 'cancelled'
                        ? 'Cancelled'
                        : item.refused
                          ? 'Refused'
                          : 'Failed'}
                </span>
              </div>
              <Progress
                value={item.status === 'done' || item.refused ? 100 : percent}
                aria-label={`Upload progress of ${item.file.name}`}
                className={cn(item.status === 'error' && '[&>div]:bg-destructive')}
              />
              {item.error ? <p className="text-destructive text-xs">{item.error}</p> : null}
              {item.status === 'done' && row?.status === 'failed' && row.error ? (
                <p className="text-destructive text-xs">{row.error}</p>
              ) : null}
              {item.refused ? (
                <p className="text-muted-foreground text-xs" data-testid="upload-refused">
                  Sending the same file again cannot succeed: remove it from the list.
                </p>
              ) : null}
            </div>
            {item.status === 'uploading' ? (
              <Button
                variant="ghost"
                size="icon-sm"
                aria-label={`Cancel upload of ${item.file.name}`}
                onClick={() => onCancel(item.id)}
              >
                <X aria-hidden="true" />
              </Button>
            ) : item.refused ? (
              <Button variant="outline" size="sm" onClick={() => onDismiss(item.id)}>
                <X aria-hidden="true" />
                Remove from list
              </Button>
            ) : item.status === 'error' || item.status === 'cancelled' ? (
              <div className="flex">
                <Button
                  variant="ghost"
                  size="icon-sm"
                  aria-label={`Retry upload of ${item.file.name}`}
                  onClick={() => onRetry(item.id)}
                >
                  <RotateCcw aria-hidden="true" />
                </Button>
                <Button
                  variant="ghost"
                  size="icon-sm"
                  aria-label={`Dismiss ${item.file.name}`}
                  onClick={() => onDismiss(item.id)}
                >
                  <CircleX aria-hidden="true" />
                </Button>
              </div>
            ) : (
              <Button
                variant="ghost"
                size="icon-sm"
                aria-label={`Dismiss ${item.file.name}`}
                onClick={() => onDismiss(item.id)}
              >
                <CircleCheck className="text-success" aria-hidden="true" />
              </Button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
