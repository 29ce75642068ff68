/**
 * What the Location Tracker's editor edits, as pure functions over immutable values: zones (named, coloured
 * polygons), exclusion regions (polygons the tracker ignores) and the scale line. `toRequest` turns them into
 * the run's `zones`, `exclusions` and `scale` parameters; `fromParameters` reads a run's back.
 */
import type { Size } from '@/components/player/picture-geometry';
import { type Polygon, polygonArea, segmentLength, translatePolygon, type Vertex } from './geometry';

export interface Zone {
  /** Local identity (React keys, selection); never sent. */
  id: string;
  name: string;
  color: string;
  points: Vertex[];
}

export interface Exclusion {
  id: string;
  points: Vertex[];
}

export const SCALE_UNITS = ['mm', 'cm', 'm', 'in'] as const;
export type ScaleUnit = (typeof SCALE_UNITS)[number];

export interface ScaleLine {
  a: Vertex;
  b: Vertex;
  /** As typed: validated when the run is asked for. */
  length: string;
  unit: ScaleUnit;
}

export interface Layout {
  zones: Zone[];
  exclusions: Exclusion[];
  scale: ScaleLine | null;
}

export const emptyLayout = (): Layout => ({ zones: [], exclusions: [], scale: null });

/** Distinct on light and dark arenas; the next zone takes the first colour no zone uses. */
export const ZONE_COLORS = ['#f59e0b', '#38bdf8', '#a3e635', '#f472b6', '#a78bfa', '#fb7185', '#2dd4bf', '#facc15'];

let counter = 0;
export const newId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

/** "Zone n" with the smallest n no zone's name takes (names compare as `sameName` does). */
export function nextZoneName(zones: readonly Zone[]): string {
  for (let n = 1; ; n++) {
    const name = `Zone ${n}`;
    if (!zones.some((zone) => sameName(zone.name, name))) return name;
  }
}

export function nextZoneColor(zones: readonly Zone[]): string {
  const used = new Set(zones.map((zone) => zone.color.toLowerCase()));
  return ZONE_COLORS.find((color) => !used.has(color)) ?? ZONE_COLORS[zones.length % ZONE_COLORS.length]!;
}

/**
 * Names are compared trimmed and without regard to case: each becomes a column of the series export, and two
 * columns "Centre" and "centre" would be read as one in a spreadsheet.
 */
export const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The server's longest zone name. */
export const MAX_ZONE_NAME = 64;

/** The series export's own columns: a zone (a column of its own there) may not take one of these names. */
const SERIES_COLUMNS = new Set([
  'frame',
  'time_s',
  'x',
  'y',
  'distance_px',
  ...SCALE_UNITS.map((u) => `distance_${u}`),
]);

/**
 * Per zone id, what is wrong with its name: empty, too long, a column of the series export, or the same as an
 * earlier zone's.
 */
export function zoneNameErrors(zones: readonly Zone[]): Record<string, string> {
  const errors: Record<string, string> = {};
  zones.forEach((zone, index) => {
    const name = zone.name.trim();
    if (name === '') errors[zone.id] = 'A zone needs a name.';
    else if (name.length > MAX_ZONE_NAME) errors[zone.id] = `A zone name has at most ${MAX_ZONE_NAME} characters.`;
    else if (SERIES_COLUMNS.has(name.toLowerCase())) {
      errors[zone.id] = `“${name}” names a column of the series export; choose another name.`;
    } else if (zones.slice(0, index).some((other) => sameName(other.name, zone.name))) {
      errors[zone.id] = `Another zone is already named “${zone.name.trim()}”.`;
    }
  });
  return errors;
}

export function addZone(layout: Layout, points: Vertex[]): { layout: Layout; id: string } {
  const zone: Zone = {
    id: newId('zone'),
    name: nextZoneName(layout.zones),
    color: nextZoneColor(layout.zones),
    points,
  };
  return { layout: { ...layout, zones: [...layout.zones, zone] }, id: zone.id };
}

export function addExclusion(layout: Layout, points: Vertex[]): { layout: Layout; id: string } {
  const exclusion: Exclusion = { id: newId('exclusion'), points };
  return { layout: { ...layout, exclusions: [...layout.exclusions, exclusion] }, id: exclusion.id };
}

export function updateZone(layout: Layout, id: string, patch: Partial<Omit<Zone, 'id'>>): Layout {
  return { ...layout, zones: layout.zones.map((zone) => (zone.id === id ? { ...zone, ...patch } : zone)) };
}

/** Removes the zone or exclusion region with this id. */
export function deleteShape(layout: Layout, id: string): Layout {
  return {
    ...layout,
    zones: layout.zones.filter((zone) => zone.id !== id),
    exclusions: layout.exclusions.filter((exclusion) => exclusion.id !== id),
  };
}

/** The points of the zone or exclusion region with this id, or null. */
export function shapePoints(layout: Layout, id: string): Vertex[] | null {
  return (
    layout.zones.find((zone) => zone.id === id)?.points ??
    layout.exclusions.find((exclusion) => exclusion.id === id)?.points ??
    null
  );
}

export function setShapePoints(layout: Layout, id: string, points: Vertex[]): Layout {
  return {
    ...layout,
    zones: layout.zones.map((zone) => (zone.id === id ? { ...zone, points } : zone)),
    exclusions: layout.exclusions.map((exclusion) => (exclusion.id === id ? { ...exclusion, points } : exclusion)),
  };
}

/** The shape `id` as it was (`from`), moved by (dx, dy) and kept inside the picture. */
export const moveShape = (layout: Layout, id: string, from: Polygon, dx: number, dy: number, picture: Size) =>
  setShapePoints(layout, id, translatePolygon(from, dx, dy, picture));

/** Vertex `index` of shape `id` moved to `to`. */
export function moveVertex(layout: Layout, id: string, index: number, to: Vertex): Layout {
  const points = shapePoints(layout, id);
  if (!points || index < 0 || index >= points.length) return layout;
  return setShapePoints(
    layout,
    id,
    points.map((point, i) => (i === index ? to : point)),
  );
}

export interface ScaleParameter {
  px_distance: number;
  true_distance: number;
  unit: ScaleUnit;
  /** The drawn line, kept with the run so it is drawn again when the run's settings are loaded. */
  line?: [Vertex, Vertex];
}

export type LayoutErrors = Partial<Record<'zones' | 'exclusions' | 'scale', string>>;

/**
 * The run's `zones`, `exclusions` and `scale`, or what stops them being sent: a zone without a (unique) name, a
 * shape with no area, a scale line of no length or without a positive true length.
 */
export function toRequest(layout: Layout):
  | {
      ok: true;
      zones: { name: string; points: Vertex[] }[];
      exclusions: { points: Vertex[] }[];
      scale: ScaleParameter | null;
    }
  | { ok: false; errors: LayoutErrors } {
  const errors: LayoutErrors = {};
  const nameErrors = zoneNameErrors(layout.zones);
  if (Object.keys(nameErrors).length > 0) errors.zones = 'Each zone needs its own name.';
  else if (layout.zones.some((zone) => zone.points.length < 3 || polygonArea(zone.points) === 0)) {
    errors.zones = 'A zone must enclose an area (3 points or more, not on one line).';
  }
  if (layout.exclusions.some((exclusion) => exclusion.points.length < 3 || polygonArea(exclusion.points) === 0)) {
    errors.exclusions = 'An exclusion region must enclose an area.';
  }
  let scale: ScaleParameter | null = null;
  if (layout.scale) {
    const px = segmentLength(layout.scale.a, layout.scale.b);
    const length = Number(layout.scale.length.trim());
    if (!(px > 0)) errors.scale = 'Draw the scale line between two different points.';
    else if (layout.scale.length.trim() === '' || !Number.isFinite(length) || length <= 0) {
      errors.scale = 'Give the line’s true length, a number above 0.';
    } else {
      scale = {
        px_distance: Math.round(px * 1000) / 1000,
        true_distance: length,
        unit: layout.scale.unit,
        line: [[...layout.scale.a], [...layout.scale.b]],
      };
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    zones: layout.zones.map((zone) => ({ name: zone.name.trim(), points: zone.points.map(([x, y]) => [x, y]) })),
    exclusions: layout.exclusions.map((exclusion) => ({ points: exclusion.points.map(([x, y]) => [x, y]) })),
    scale,
  };
}

const isVertex = (value: unknown): value is Vertex =>
  Array.isArray(value) && value.length === 2 && value.every((n) => typeof n === 'number' && Number.isFinite(n));

const readPoints = (raw: unknown): Vertex[] | null =>
  Array.isArray(raw) && raw.length >= 3 && raw.every(isVertex) ? raw.map(([x, y]) => [x, y] as Vertex) : null;

/** A stored scale line, when it is two points inside the picture. */
function readLine(raw: unknown, picture: Size): [Vertex, Vertex] | null {
  if (!Array.isArray(raw) || raw.length !== 2 || !raw.every(isVertex)) return null;
  const [a, b] = raw as [Vertex, Vertex];
  const inside = ([x, y]: Vertex) => x >= 0 && y >= 0 && x <= picture.width && y <= picture.height;
  return inside(a) && inside(b)
    ? [
        [a[0], a[1]],
        [b[0], b[1]],
      ]
    : null;
}

/**
 * A run's stored zones, exclusions and scale back into the editor (unusable items are left out). The scale line
 * comes back where it was drawn; a run stored without its line (before the line was kept) gets a horizontal line
 * of the stored pixel length in the middle of the picture.
 */
export function fromParameters(parameters: Record<string, unknown>, picture: Size): Layout {
  const layout = emptyLayout();
  if (Array.isArray(parameters.zones)) {
    for (const raw of parameters.zones as unknown[]) {
      const item = raw as { name?: unknown; points?: unknown } | null;
      const points = readPoints(item?.points);
      if (!points || typeof item?.name !== 'string') continue;
      layout.zones.push({ id: newId('zone'), name: item.name, color: nextZoneColor(layout.zones), points });
    }
  }
  if (Array.isArray(parameters.exclusions)) {
    for (const raw of parameters.exclusions as unknown[]) {
      const points = readPoints((raw as { points?: unknown } | null)?.points);
      if (points) layout.exclusions.push({ id: newId('exclusion'), points });
    }
  }
  const scale = parameters.scale as Partial<ScaleParameter> | null | undefined;
  if (
    scale &&
    typeof scale.px_distance === 'number' &&
    scale.px_distance > 0 &&
    typeof scale.true_distance === 'number' &&
    SCALE_UNITS.includes(scale.unit as ScaleUnit)
  ) {
    const half = Math.min(scale.px_distance, picture.width) / 2;
    const y = picture.height / 2;
    const [a, b] = readLine(scale.line, picture) ?? [
      [picture.width / 2 - half, y],
      [picture.width / 2 + half, y],
    ];
    layout.scale = { a, b, length: String(scale.true_distance), unit: scale.unit as ScaleUnit };
  }
  return layout;
}
