import { Plus, RotateCcw, X } from 'lucide-react';
import { useState } from 'react';
import { usePlayer } from '@/components/player/player-controller';
import { PlayerControls } from '@/components/player/player-controls';
import { transportKeys } from '@/components/player/player-keys';
import { VideoPlayer } from '@/components/player/video-player';
import { Button } from '@/components/ui/button';
import { Field, fieldAria } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/select';
import { formatValue } from '@/features/analysis-logs/run-display';
import type { ProtocolKind } from '@/features/protocols/api';
import type { Video } from '@/features/videos/api';
import { playerFacts, playerSource } from '@/features/videos/player-source';
import { type GeometryMove, hasGeometry, IDENTITY, type VideoAdjustment } from '../adjustment';
import { OVERRIDE_FIELDS, readOverride } from '../overrides';
import { GeometryOverlay } from './geometry-overlay';

/**
 * One video of a batch before it starts: its picture in the shared player with the protocol's geometry drawn over
 * it, moved and scaled by dragging or by numbers, and the parameters overridden for this video alone.
 */
export function VideoAdjuster({
  video,
  kind,
  parameters,
  origin,
  adjustment,
  onChange,
  errors,
}: {
  video: Video;
  kind: ProtocolKind;
  /** The protocol version's parameters. */
  parameters: Record<string, unknown>;
  /** The point scaling is about: the centre of the protocol's geometry. */
  origin: [number, number];
  adjustment: VideoAdjustment | undefined;
  onChange: (adjustment: VideoAdjustment) => void;
  /** The server's messages about this video. */
  errors: string[];
}) {
  const player = usePlayer(playerFacts(video));
  const picture = { width: video.width || 640, height: video.height || 480 };
  const move: GeometryMove = { ...IDENTITY, ...adjustment?.geometry, origin };
  const setMove = (next: GeometryMove) =>
    onChange({ ...adjustment, geometry: { dx: next.dx, dy: next.dy, scale: next.scale, origin } });
  const geometry = hasGeometry(kind, parameters);

  return (
    <div className="grid grid-cols-1 gap-4" data-testid="video-adjuster" data-video={video.video_uuid}>
      <VideoPlayer
        player={player}
        source={{ ...playerSource(video), width: picture.width, height: picture.height }}
        onKeyDown={transportKeys(player)}
        maxHeight="45vh"
        overlay={
          geometry ? (
            <GeometryOverlay picture={picture} kind={kind} parameters={parameters} move={move} onChange={setMove} />
          ) : undefined
        }
        controls={<PlayerControls player={player} id={`batch-rate-${video.video_uuid}`} />}
      />
      {geometry ? (
        <fieldset className="grid grid-cols-1 gap-3" data-testid="geometry-numbers">
          <legend className="mb-2 font-medium text-sm">Move and scale the geometry on this video</legend>
          <div className="grid grid-cols-3 gap-3">
            <NumberField
              id="adjust-dx"
              label="Right (px)"
              value={move.dx}
              onChange={(dx) => setMove({ ...move, dx })}
            />
            <NumberField id="adjust-dy" label="Down (px)" value={move.dy} onChange={(dy) => setMove({ ...move, dy })} />
            <NumberField
              id="adjust-scale"
              label="Scale (×)"
              value={move.scale}
              step={0.01}
              min={0.05}
              onChange={(scale) => setMove({ ...move, scale })}
            />
          </div>
          <div>
            <Button type="button" variant="ghost" size="sm" onClick={() => setMove({ ...IDENTITY, origin })}>
              <RotateCcw aria-hidden="true" />
              Reset the geometry
            </Button>
          </div>
        </fieldset>
      ) : (
        <p className="text-muted-foreground text-sm">This protocol has no regions or zones to move.</p>
      )}
      <ParameterOverrides
        kind={kind}
        parameters={parameters}
        overrides={adjustment?.parameters ?? {}}
        onChange={(overrides) => onChange({ ...adjustment, parameters: overrides })}
      />
      {errors.length ? (
        <div role="alert" className="text-destructive text-sm" data-testid="video-errors">
          {errors.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
      ) : null}
    </div>
  );
}

/** A number typed freely; sent on each valid value (an empty or half-typed one keeps the last). */
function NumberField({
  id,
  label,
  value,
  onChange,
  step = 1,
  min,
}: {
  id: string;
  label: string;
  value: number;
  onChange: (value: number) => void;
  step?: number;
  min?: number;
}) {
  const [text, setText] = useState<string | null>(null);
  return (
    <Field id={id} label={label}>
      <Input
        id={id}
        type="number"
        inputMode="decimal"
        step={step}
        min={min}
        value={text ?? String(value)}
        onChange={(event) => {
          setText(event.target.value);
          const next = Number(event.target.value);
          if (event.target.value.trim() !== '' && Number.isFinite(next) && (min === undefined || next >= min)) {
            onChange(next);
          }
        }}
        onBlur={() => setText(null)}
      />
    </Field>
  );
}

/** "Override a parameter": pick one of the kind's numbers, give this video's value; each listed with the protocol's. */
function ParameterOverrides({
  kind,
  parameters,
  overrides,
  onChange,
}: {
  kind: ProtocolKind;
  parameters: Record<string, unknown>;
  overrides: Record<string, number | null>;
  onChange: (overrides: Record<string, number | null>) => void;
}) {
  const fields = OVERRIDE_FIELDS[kind];
  const free = fields.filter((field) => !(field.name in overrides));
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [error, setError] = useState<string[] | undefined>();
  const chosen = fields.find((field) => field.name === (name || free[0]?.name));

  const add = () => {
    if (!chosen) return;
    const read = readOverride(chosen, text);
    if ('error' in read) {
      setError([read.error]);
      return;
    }
    setError(undefined);
    setText('');
    setName('');
    onChange({ ...overrides, [chosen.name]: read.value });
  };

  return (
    <fieldset className="grid grid-cols-1 gap-3" data-testid="parameter-overrides">
      <legend className="mb-2 font-medium text-sm">Override a parameter on this video</legend>
      {Object.keys(overrides).length ? (
        <ul className="grid gap-1 text-sm">
          {Object.entries(overrides).map(([key, value]) => (
            <li key={key} className="flex items-center gap-2" data-testid="override" data-key={key}>
              <span className="min-w-0 flex-1">
                {fields.find((field) => field.name === key)?.label ?? key}:{' '}
                <span className="text-muted-foreground line-through">{formatValue(parameters[key])}</span>{' '}
                <span className="font-medium">{value === null ? 'off' : formatValue(value)}</span>
              </span>
              <Button
                type="button"
                variant="ghost"
                size="icon"
                aria-label={`Remove the override of ${key}`}
                onClick={() => onChange(Object.fromEntries(Object.entries(overrides).filter(([k]) => k !== key)))}
              >
                <X aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      {free.length ? (
        <div className="grid grid-cols-1 items-end gap-3 sm:grid-cols-[1fr_8rem_auto]">
          <Field id="override-name" label="Parameter">
            <NativeSelect id="override-name" value={chosen?.name ?? ''} onChange={(e) => setName(e.target.value)}>
              {free.map((field) => (
                <option key={field.name} value={field.name}>
                  {field.label}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field id="override-value" label="Value" errors={error}>
            <Input
              {...fieldAria('override-value', error)}
              type="number"
              inputMode="decimal"
              min={chosen?.min}
              max={chosen?.max}
              step="any"
              placeholder={chosen?.optional ? 'off' : undefined}
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          </Field>
          <Button type="button" variant="outline" onClick={add}>
            <Plus aria-hidden="true" />
            Override
          </Button>
        </div>
      ) : null}
    </fieldset>
  );
}
