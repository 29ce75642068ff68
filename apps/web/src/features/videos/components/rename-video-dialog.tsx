import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { CappedInput } from '@/components/ui/capped-input';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Field, fieldAria } from '@/components/ui/field';
import { FIELD_LIMITS } from '@/lib/field-limits';
import type { Video } from '../api';
import { useRenameVideo } from '../hooks/use-video-mutations';

/** Renames a video; the original file name stays on record. */
export function RenameVideoDialog({
  projectUuid,
  subjectUuid,
  video,
  onClose,
}: {
  projectUuid: string;
  subjectUuid: string;
  video: Video | null;
  onClose: () => void;
}) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string[] | undefined>();
  const rename = useRenameVideo(projectUuid, subjectUuid);
  useEffect(() => {
    setName(video?.name ?? '');
    setError(undefined);
  }, [video]);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!video) return;
    if (!name.trim()) return setError(['Give the video a name.']);
    rename.mutate({ videoUuid: video.video_uuid, name: name.trim() }, { onSuccess: onClose });
  };
  return (
    <Dialog open={video !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <form onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-4">
          <DialogHeader>
            <DialogTitle>Rename video</DialogTitle>
            <DialogDescription>The original file name stays on record.</DialogDescription>
          </DialogHeader>
          <Field id="video-name" label="Name" errors={error}>
            <CappedInput
              {...fieldAria('video-name', error)}
              value={name}
              onChange={(e) => setName(e.target.value)}
              autoFocus
              max={FIELD_LIMITS.videoName}
              noun="a video name"
            />
          </Field>
          <DialogFooter>
            <Button variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={rename.isPending}>
              Save
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
