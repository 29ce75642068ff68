import { useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Field, fieldAria } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/select';
import { type Video, videoQueries } from '@/features/videos/api';
import { type FieldErrors, parseFrameList, type ReferenceSource, type ReferenceValues } from '../parameters';

const SOURCES: { value: ReferenceSource; label: string; help: string }[] = [
  {
    value: 'spread',
    label: 'Frames spread over this video',
    help: 'The median of the reference frames (above). Checked for an animal that sits still through most of them.',
  },
  {
    value: 'video',
    label: 'An empty-arena video',
    help: 'A recording of the arena without the animal, same camera and size: the best reference when the animal rests a lot.',
  },
  {
    value: 'frames',
    label: 'Frames I choose',
    help: 'The median of frames of this video where the animal is somewhere else each time (the more, the better).',
  },
];

/**
 * Where the reference (the empty arena the animal is found against) comes from: frames spread over this video,
 * an empty-arena video of the project of the same size, or frames of this video the user lists — the player's
 * frame added with a click.
 */
export function ReferenceChoice({
  projectUuid,
  video,
  value,
  onChange,
  currentFrame,
  errors,
  disabled,
}: {
  projectUuid: string;
  video: Pick<Video, 'video_uuid' | 'width' | 'height'>;
  value: ReferenceValues;
  onChange: (value: ReferenceValues) => void;
  /** The frame the player shows, for "Add frame n". */
  currentFrame: () => number;
  errors: FieldErrors;
  disabled?: boolean;
}) {
  const videos = useQuery({
    ...videoQueries.inProject(projectUuid, { page_size: 100, ordering: 'name' }),
    enabled: value.source === 'video',
  });
  const others = (videos.data?.results ?? []).filter((other) => other.video_uuid !== video.video_uuid);
  const sameSize = (other: Video) => other.width === video.width && other.height === video.height;
  const help = SOURCES.find((source) => source.value === value.source)?.help;

  return (
    <fieldset className="grid grid-cols-1 gap-3" disabled={disabled} data-testid="reference-choice">
      <legend className="mb-2 font-medium text-sm">Reference (the empty arena)</legend>
      <div className="grid gap-1.5" role="radiogroup" aria-describedby="lt-reference-help">
        {SOURCES.map((source) => (
          <label key={source.value} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="lt-reference"
              value={source.value}
              checked={value.source === source.value}
              onChange={() => onChange({ ...value, source: source.value })}
              className="size-4 accent-primary"
            />
            {source.label}
          </label>
        ))}
      </div>
      <p id="lt-reference-help" className="text-muted-foreground text-xs">
        {help}
      </p>
      {value.source === 'video' ? (
        <Field id="lt-reference-video" label="Empty-arena video" errors={errors.reference}>
          <NativeSelect
            {...fieldAria('lt-reference-video', errors.reference)}
            value={value.videoUuid}
            onChange={(event) => onChange({ ...value, videoUuid: event.target.value })}
          >
            <option value="">{videos.isLoading ? 'Loading the videos…' : 'Choose a video of this project'}</option>
            {others.map((other) => (
              <option key={other.video_uuid} value={other.video_uuid} disabled={!sameSize(other)}>
                {other.name} ({other.width}×{other.height}
                {sameSize(other) ? '' : ', not this video’s size'})
              </option>
            ))}
          </NativeSelect>
        </Field>
      ) : null}
      {value.source === 'frames' ? (
        <Field
          id="lt-reference-frames"
          label="Reference frames of this video"
          description="Frame numbers, separated by commas. Pause where the animal is elsewhere and add the frame."
          errors={errors.reference}
        >
          <div className="flex gap-2">
            <Input
              {...fieldAria('lt-reference-frames', errors.reference)}
              value={value.frames}
              placeholder="0, 300, 600"
              onChange={(event) => onChange({ ...value, frames: event.target.value })}
            />
            <Button
              type="button"
              variant="outline"
              onClick={() => {
                const frame = currentFrame();
                const listed = parseFrameList(value.frames) ?? [];
                if (listed.includes(frame)) return;
                onChange({ ...value, frames: [...listed, frame].sort((a, b) => a - b).join(', ') });
              }}
            >
              <Plus aria-hidden="true" />
              Add this frame
            </Button>
          </div>
        </Field>
      ) : null}
      {value.source === 'spread' && errors.reference ? (
        <p role="alert" className="text-destructive text-sm">
          {errors.reference.join(' ')}
        </p>
      ) : null}
    </fieldset>
  );
}
