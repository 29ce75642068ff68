import { Loader2, Upload } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Field, fieldAria } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/errors';
import { type FieldErrors, fieldErrors, hasErrors, serverFieldErrors } from '@/lib/validation';
import type { PoseSet, PoseVideoRef } from '../api';
import { useImportPose } from '../hooks/use-pose-mutations';

/** The server takes a name of at most 200 characters (pose.service.ts). */
const MAX_NAME = 200;

interface Form {
  file: File | null;
  name: string;
  frameOffset: string;
  config: File | null;
}

/** The form's own checks before sending: a file, a whole frame offset, a name that fits. */
export function checkPoseForm(form: Form): FieldErrors {
  return fieldErrors({
    file: form.file ? null : 'Choose the pose file (DeepLabCut .csv or .h5, SLEAP .h5 or .csv).',
    frame_offset:
      form.frameOffset.trim() === '' || /^\d{1,9}$/.test(form.frameOffset.trim())
        ? null
        : 'A whole number of frames, 0 or more.',
    name: form.name.trim().length > MAX_NAME ? `A name has at most ${MAX_NAME} characters.` : null,
  });
}

/**
 * "Import pose file": a DeepLabCut or SLEAP file for a video, an optional name and frame offset, and for DeepLabCut
 * the project's config.yaml, whose skeleton gives the edges. What the server refuses is shown under its field.
 */
export function PoseImportDialog({
  videoRef,
  videoName,
  open,
  onOpenChange,
  onImported,
}: {
  videoRef: PoseVideoRef;
  videoName: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onImported?: (set: PoseSet) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-lg">
        {open ? (
          <PoseImportForm
            videoRef={videoRef}
            videoName={videoName}
            onDone={() => onOpenChange(false)}
            onImported={onImported}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function PoseImportForm({
  videoRef,
  videoName,
  onDone,
  onImported,
}: {
  videoRef: PoseVideoRef;
  videoName: string;
  onDone: () => void;
  onImported?: (set: PoseSet) => void;
}) {
  const [form, setForm] = useState<Form>({ file: null, name: '', frameOffset: '', config: null });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const importPose = useImportPose(videoRef);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkPoseForm(form);
    setErrors(checked);
    setFailure(null);
    if (hasErrors(checked) || !form.file) return;
    importPose.mutate(
      { file: form.file, name: form.name, frameOffset: form.frameOffset, config: form.config },
      {
        onSuccess: (set) => {
          onImported?.(set);
          onDone();
        },
        onError: (error) => {
          const byField = serverFieldErrors(error);
          setErrors(byField);
          // A refusal not tied to a field (too large, not multipart…) is said above the buttons.
          setFailure(hasErrors(byField) ? null : errorMessage(error));
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-5" data-testid="pose-import-form">
      <DialogHeader>
        <DialogTitle>Import pose file</DialogTitle>
        <DialogDescription>
          Keypoints of {videoName} from DeepLabCut (.csv or .h5) or SLEAP (analysis .h5 or .csv), read by their
          contents. A file of every frame must have the video’s frame count, or fit in it from the frame offset.
        </DialogDescription>
      </DialogHeader>
      <Field id="pose-file" label="Pose file" errors={errors.file}>
        <Input
          {...fieldAria('pose-file', errors.file)}
          type="file"
          accept=".csv,.h5,.hdf5,text/csv"
          onChange={(event) => setForm((f) => ({ ...f, file: event.target.files?.[0] ?? null }))}
        />
      </Field>
      <Field id="pose-name" label="Name" description="Optional: the file’s name when left empty." errors={errors.name}>
        <Input
          {...fieldAria('pose-name', errors.name)}
          value={form.name}
          maxLength={MAX_NAME}
          placeholder={form.file?.name.replace(/\.[A-Za-z0-9]{1,5}$/, '') ?? 'e.g. DLC resnet50, shuffle 1'}
          onChange={(event) => setForm((f) => ({ ...f, name: event.target.value }))}
        />
      </Field>
      <Field
        id="pose-offset"
        label="Frame offset"
        description="Optional: the video frame of the file’s first frame, when the file covers only part of the video."
        errors={errors.frame_offset}
      >
        <Input
          {...fieldAria('pose-offset', errors.frame_offset)}
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          placeholder="0"
          value={form.frameOffset}
          onChange={(event) => setForm((f) => ({ ...f, frameOffset: event.target.value }))}
        />
      </Field>
      <Field
        id="pose-config"
        label="DeepLabCut config.yaml"
        description="Optional, DeepLabCut only: its skeleton (pairs of body parts) is drawn between the points. SLEAP files carry their own."
        errors={errors.config}
      >
        <Input
          {...fieldAria('pose-config', errors.config)}
          type="file"
          accept=".yaml,.yml"
          onChange={(event) => setForm((f) => ({ ...f, config: event.target.files?.[0] ?? null }))}
        />
      </Field>
      {failure ? (
        <p role="alert" className="text-destructive text-sm">
          {failure}
        </p>
      ) : null}
      <DialogFooter>
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={importPose.isPending}>
          {importPose.isPending ? (
            <Loader2 className="animate-spin" aria-hidden="true" />
          ) : (
            <Upload aria-hidden="true" />
          )}
          Import
        </Button>
      </DialogFooter>
    </form>
  );
}
