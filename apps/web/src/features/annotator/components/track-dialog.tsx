import { Loader2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
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
import { Input } from '@/components/ui/input';
import { FIELD_LIMITS } from '@/lib/field-limits';
import { type FieldErrors, fieldErrors, hasErrors, serverFieldErrors } from '@/lib/validation';
import type { Track } from '../api';

/** Colours offered to a new track, in turn (the server's palette). */
export const TRACK_COLORS = ['#e11d48', '#2563eb', '#16a34a', '#d97706', '#9333ea', '#0891b2', '#db2777', '#65a30d'];

/** Keys the page keeps for itself are never hot keys; a hot key is one letter or digit. */
export function validateTrack(
  name: string,
  hotkey: string,
  others: readonly Pick<Track, 'name' | 'hotkey'>[],
): FieldErrors {
  const trimmed = name.trim();
  const key = hotkey.trim().toLowerCase();
  const holder = key ? others.find((t) => t.hotkey === key) : undefined;
  return fieldErrors({
    name: !trimmed
      ? 'A track needs a name.'
      : trimmed.length > 100
        ? 'A track name has at most 100 characters.'
        : others.some((t) => t.name.toLowerCase() === trimmed.toLowerCase())
          ? `This video already has a track named "${trimmed}".`
          : null,
    hotkey:
      key && !/^[a-z0-9]$/.test(key)
        ? 'A hot key is one letter (a–z) or digit (0–9).'
        : holder
          ? `The key "${key}" is already used by the track "${holder.name}".`
          : null,
  });
}

export interface TrackFormValues {
  name: string;
  color: string;
  hotkey: string | null;
}

/** Creates a track or changes one: name, colour and hot key. */
export function TrackDialog({
  open,
  onOpenChange,
  track,
  others,
  defaultColor,
  pending,
  onSubmit,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The track to change; none for a new one. */
  track: Track | null;
  /** The video's other tracks (names and keys are unique). */
  others: readonly Track[];
  defaultColor: string;
  pending: boolean;
  /** Saves; resolves with the server's field errors (empty when saved). */
  onSubmit: (values: TrackFormValues) => Promise<FieldErrors>;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-md">
        {open ? (
          <TrackForm
            track={track}
            others={others}
            defaultColor={defaultColor}
            pending={pending}
            onSubmit={onSubmit}
            onDone={() => onOpenChange(false)}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function TrackForm({
  track,
  others,
  defaultColor,
  pending,
  onSubmit,
  onDone,
}: {
  track: Track | null;
  others: readonly Track[];
  defaultColor: string;
  pending: boolean;
  onSubmit: (values: TrackFormValues) => Promise<FieldErrors>;
  onDone: () => void;
}) {
  const [name, setName] = useState(track?.name ?? '');
  const [hotkey, setHotkey] = useState(track?.hotkey ?? '');
  const [color, setColor] = useState(track?.color ?? defaultColor);
  const [errors, setErrors] = useState<FieldErrors>({});

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateTrack(name, hotkey, others);
    setErrors(found);
    if (hasErrors(found)) return;
    try {
      const fromServer = await onSubmit({ name: name.trim(), color, hotkey: hotkey.trim().toLowerCase() || null });
      if (hasErrors(fromServer)) setErrors(fromServer);
      else onDone();
    } catch (error) {
      setErrors(serverFieldErrors(error));
    }
  };

  return (
    <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-5">
      <DialogHeader>
        <DialogTitle>{track ? `Edit "${track.name}"` : 'New track'}</DialogTitle>
        <DialogDescription>
          A track holds the bouts of one behaviour. Its hot key starts a bout at the current frame and ends it.
        </DialogDescription>
      </DialogHeader>
      <Field id="track-name" label="Name" errors={errors.name}>
        <CappedInput
          {...fieldAria('track-name', errors.name)}
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="e.g. Grooming"
          autoFocus
          max={FIELD_LIMITS.trackName}
          noun="a track name"
        />
      </Field>
      <div className="grid grid-cols-2 gap-4">
        <Field id="track-hotkey" label="Hot key" description="One letter or digit" errors={errors.hotkey}>
          <Input
            {...fieldAria('track-hotkey', errors.hotkey)}
            value={hotkey}
            onChange={(e) => setHotkey(e.target.value.slice(-1))}
            className="w-16 text-center font-mono uppercase"
            maxLength={1}
          />
        </Field>
        <Field id="track-color" label="Colour" errors={errors.color}>
          <Input
            {...fieldAria('track-color', errors.color)}
            type="color"
            value={color}
            onChange={(e) => setColor(e.target.value)}
            className="h-9 w-16 p-1"
          />
        </Field>
      </div>
      <DialogFooter>
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          {track ? 'Save track' : 'Add track'}
        </Button>
      </DialogFooter>
    </form>
  );
}
