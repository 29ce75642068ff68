import { Trash2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { fieldAria } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/select';
import { cn } from '@/lib/utils';
import { segmentLength } from '../geometry';
import {
  deleteShape,
  type Layout,
  type LayoutErrors,
  MAX_ZONE_NAME,
  SCALE_UNITS,
  type ScaleUnit,
  updateZone,
  zoneNameErrors,
} from '../zones';

/**
 * The drawn shapes as a list: each zone's name (required, unique) and colour, the exclusion regions, and the
 * scale line's true length and unit. Selecting a row selects the shape on the picture.
 */
export function ShapeList({
  layout,
  onChange,
  selectedId,
  onSelect,
  errors,
  disabled,
}: {
  layout: Layout;
  onChange: (layout: Layout) => void;
  selectedId: string | null;
  onSelect: (id: string | null) => void;
  /** The layout's own errors and the server's, by parameter. */
  errors: LayoutErrors;
  disabled?: boolean;
}) {
  const nameErrors = zoneNameErrors(layout.zones);
  const remove = (id: string) => {
    onChange(deleteShape(layout, id));
    if (selectedId === id) onSelect(null);
  };

  return (
    <fieldset className="grid grid-cols-1 gap-5" disabled={disabled}>
      <legend className="sr-only">Zones, exclusion regions and scale</legend>
      <section aria-labelledby="lt-zones-title" className="grid grid-cols-1 gap-2">
        <h3 id="lt-zones-title" className="font-medium text-muted-foreground text-xs uppercase tracking-wide">
          Zones
        </h3>
        {layout.zones.length === 0 ? (
          <p className="text-muted-foreground text-sm">
            None yet. Zones are optional: without them the run still gives the track and the distance.
          </p>
        ) : (
          <ul className="grid grid-cols-1 gap-2" aria-label="Zones">
            {layout.zones.map((zone, index) => {
              const id = `lt-zone-name-${index}`;
              const error = nameErrors[zone.id];
              return (
                <li
                  key={zone.id}
                  className={cn(
                    'grid grid-cols-1 gap-1 rounded-md border p-2',
                    selectedId === zone.id && 'border-primary',
                  )}
                  data-testid="zone-row"
                  onFocus={() => onSelect(zone.id)}
                >
                  <div className="flex items-center gap-2">
                    <input
                      type="color"
                      aria-label={`Colour of ${zone.name || `zone ${index + 1}`}`}
                      value={zone.color}
                      onChange={(event) => onChange(updateZone(layout, zone.id, { color: event.target.value }))}
                      className="size-8 shrink-0 cursor-pointer rounded border bg-transparent p-0.5"
                    />
                    <label htmlFor={id} className="sr-only">
                      Name of zone {index + 1}
                    </label>
                    <Input
                      {...fieldAria(id, error ? [error] : undefined)}
                      value={zone.name}
                      maxLength={MAX_ZONE_NAME}
                      onChange={(event) => onChange(updateZone(layout, zone.id, { name: event.target.value }))}
                      className="h-8"
                    />
                    <span className="shrink-0 text-muted-foreground text-xs tabular-nums">
                      {zone.points.length} pts
                    </span>
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={`Delete ${zone.name || `zone ${index + 1}`}`}
                      onClick={() => remove(zone.id)}
                    >
                      <Trash2 aria-hidden="true" />
                    </Button>
                  </div>
                  {error ? (
                    <p id={`${id}-error`} role="alert" className="text-destructive text-xs">
                      {error}
                    </p>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
        {errors.zones ? (
          <p role="alert" className="text-destructive text-xs">
            {errors.zones}
          </p>
        ) : null}
      </section>

      <section aria-labelledby="lt-exclusions-title" className="grid grid-cols-1 gap-2">
        <h3 id="lt-exclusions-title" className="font-medium text-muted-foreground text-xs uppercase tracking-wide">
          Exclusion regions
        </h3>
        {layout.exclusions.length === 0 ? (
          <p className="text-muted-foreground text-sm">None: the tracker looks at the whole picture.</p>
        ) : (
          <ul className="grid grid-cols-1 gap-1" aria-label="Exclusion regions">
            {layout.exclusions.map((exclusion, index) => (
              <li
                key={exclusion.id}
                className={cn(
                  'flex items-center gap-2 rounded-md border px-2 py-1 text-sm',
                  selectedId === exclusion.id && 'border-primary',
                )}
                data-testid="exclusion-row"
              >
                <button type="button" className="flex-1 text-left" onClick={() => onSelect(exclusion.id)}>
                  Exclusion {index + 1}{' '}
                  <span className="text-muted-foreground text-xs">({exclusion.points.length} pts)</span>
                </button>
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Delete exclusion ${index + 1}`}
                  onClick={() => remove(exclusion.id)}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </li>
            ))}
          </ul>
        )}
        {errors.exclusions ? (
          <p role="alert" className="text-destructive text-xs">
            {errors.exclusions}
          </p>
        ) : null}
      </section>

      <section aria-labelledby="lt-scale-title" className="grid grid-cols-1 gap-2">
        <h3 id="lt-scale-title" className="font-medium text-muted-foreground text-xs uppercase tracking-wide">
          Scale
        </h3>
        {layout.scale ? (
          <div className="grid grid-cols-1 gap-2">
            <p className="text-sm" data-testid="scale-pixels">
              Line of {segmentLength(layout.scale.a, layout.scale.b).toFixed(1)} px
            </p>
            <div className="flex items-center gap-2">
              <label htmlFor="lt-scale-length" className="text-sm">
                True length
              </label>
              <Input
                {...fieldAria('lt-scale-length', errors.scale ? [errors.scale] : undefined)}
                type="number"
                inputMode="decimal"
                min={0}
                step="any"
                value={layout.scale.length}
                onChange={(event) =>
                  layout.scale && onChange({ ...layout, scale: { ...layout.scale, length: event.target.value } })
                }
                className="h-8 w-28"
              />
              <label htmlFor="lt-scale-unit" className="sr-only">
                Unit
              </label>
              <NativeSelect
                id="lt-scale-unit"
                value={layout.scale.unit}
                onChange={(event) =>
                  layout.scale &&
                  onChange({ ...layout, scale: { ...layout.scale, unit: event.target.value as ScaleUnit } })
                }
              >
                {SCALE_UNITS.map((unit) => (
                  <option key={unit} value={unit}>
                    {unit}
                  </option>
                ))}
              </NativeSelect>
              <Button
                variant="ghost"
                size="icon"
                aria-label="Remove the scale"
                onClick={() => onChange({ ...layout, scale: null })}
              >
                <Trash2 aria-hidden="true" />
              </Button>
            </div>
          </div>
        ) : (
          <p className="text-muted-foreground text-sm">
            No scale: distances and speeds are in pixels. Draw a line of known length with the scale tool.
          </p>
        )}
        {errors.scale ? (
          <p id="lt-scale-length-error" role="alert" className="text-destructive text-xs">
            {errors.scale}
          </p>
        ) : null}
      </section>
    </fieldset>
  );
}
