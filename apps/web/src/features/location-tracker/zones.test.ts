import { describe, expect, it } from 'vitest';
import type { Vertex } from './geometry';
import {
  addExclusion,
  addZone,
  deleteShape,
  emptyLayout,
  fromParameters,
  type Layout,
  moveShape,
  moveVertex,
  nextZoneName,
  toRequest,
  updateZone,
  ZONE_COLORS,
  zoneNameErrors,
} from './zones';

const picture = { width: 320, height: 240 };
const tri: Vertex[] = [
  [0, 0],
  [10, 0],
  [0, 10],
];

function twoZones(): Layout {
  const first = addZone(emptyLayout(), tri);
  return addZone(first.layout, [
    [50, 50],
    [60, 50],
    [60, 60],
  ]).layout;
}

describe('zone names', () => {
  it('number new zones with the first free number, and give each a colour no other zone uses', () => {
    let layout = twoZones();
    expect(layout.zones.map((zone) => zone.name)).toEqual(['Zone 1', 'Zone 2']);
    expect(layout.zones.map((zone) => zone.color)).toEqual(ZONE_COLORS.slice(0, 2));
    layout = deleteShape(layout, layout.zones[0]!.id);
    expect(nextZoneName(layout.zones)).toBe('Zone 1');
    layout = updateZone(layout, layout.zones[0]!.id, { name: 'zone 1' });
    expect(nextZoneName(layout.zones)).toBe('Zone 2');
  });

  it('are required and unique, trimmed and regardless of case; the later duplicate is the one flagged', () => {
    let layout = twoZones();
    const [a, b] = layout.zones;
    layout = updateZone(layout, b!.id, { name: '  ZONE 1 ' });
    expect(zoneNameErrors(layout.zones)).toEqual({ [b!.id]: 'Another zone is already named “ZONE 1”.' });
    layout = updateZone(layout, a!.id, { name: '   ' });
    expect(zoneNameErrors(layout.zones)).toEqual({ [a!.id]: 'A zone needs a name.' });
    expect(toRequest(layout)).toEqual({ ok: false, errors: { zones: 'Each zone needs its own name.' } });
    layout = updateZone(layout, a!.id, { name: 'Distance_CM' });
    expect(zoneNameErrors(layout.zones)[a!.id]).toMatch(/column of the series export/);
    layout = updateZone(layout, a!.id, { name: 'x'.repeat(65) });
    expect(zoneNameErrors(layout.zones)[a!.id]).toMatch(/at most 64/);
  });
});

describe('editing shapes', () => {
  it('moves a vertex and a whole shape, and deletes zones and exclusion regions by id', () => {
    let layout = twoZones();
    const id = layout.zones[0]!.id;
    layout = moveVertex(layout, id, 1, [20, 5]);
    expect(layout.zones[0]!.points).toEqual([
      [0, 0],
      [20, 5],
      [0, 10],
    ]);
    layout = moveShape(layout, id, layout.zones[0]!.points, 5, 5, picture);
    expect(layout.zones[0]!.points).toEqual([
      [5, 5],
      [25, 10],
      [5, 15],
    ]);
    const added = addExclusion(layout, tri);
    expect(added.layout.exclusions).toHaveLength(1);
    expect(deleteShape(added.layout, added.id).exclusions).toHaveLength(0);
    expect(deleteShape(layout, id).zones.map((zone) => zone.name)).toEqual(['Zone 2']);
  });
});

describe('the request', () => {
  it('sends names trimmed, points, exclusions and the scale in the API’s shape', () => {
    let layout = twoZones();
    layout = updateZone(layout, layout.zones[0]!.id, { name: ' Centre ' });
    layout = addExclusion(layout, tri).layout;
    layout = { ...layout, scale: { a: [10, 20], b: [40, 60], length: '25', unit: 'cm' } };
    expect(toRequest(layout)).toEqual({
      ok: true,
      zones: [
        { name: 'Centre', points: tri },
        {
          name: 'Zone 2',
          points: [
            [50, 50],
            [60, 50],
            [60, 60],
          ],
        },
      ],
      exclusions: [{ points: tri }],
      scale: {
        px_distance: 50,
        true_distance: 25,
        unit: 'cm',
        line: [
          [10, 20],
          [40, 60],
        ],
      },
    });
  });

  it('refuses a flat zone, a scale of no length and a missing true length', () => {
    const flat = addZone(emptyLayout(), [
      [0, 0],
      [5, 5],
      [10, 10],
    ]).layout;
    expect(toRequest(flat)).toMatchObject({ ok: false, errors: { zones: expect.stringMatching(/area/) } });
    const dot: Layout = { ...emptyLayout(), scale: { a: [5, 5], b: [5, 5], length: '1', unit: 'm' } };
    expect(toRequest(dot)).toMatchObject({ ok: false, errors: { scale: expect.stringMatching(/two different/) } });
    const unsized: Layout = { ...emptyLayout(), scale: { a: [0, 0], b: [3, 4], length: ' ', unit: 'm' } };
    expect(toRequest(unsized)).toMatchObject({ ok: false, errors: { scale: expect.stringMatching(/true length/) } });
    expect(toRequest({ ...unsized, scale: { ...unsized.scale!, length: '-2' } })).toMatchObject({ ok: false });
  });

  it('reads a run’s parameters back, leaving out what it cannot use', () => {
    const layout = fromParameters(
      {
        zones: [{ name: 'Centre', points: tri }, { name: 'bad', points: [[0, 0]] }, { points: tri }],
        exclusions: [{ points: tri }, { points: 'x' }],
        scale: { px_distance: 100, true_distance: 40, unit: 'cm' },
      },
      picture,
    );
    expect(layout.zones.map((zone) => [zone.name, zone.points])).toEqual([['Centre', tri]]);
    expect(layout.exclusions).toHaveLength(1);
    expect(layout.scale).toEqual({ a: [110, 120], b: [210, 120], length: '40', unit: 'cm' });
    const again = toRequest(layout);
    expect(again.ok && again.scale).toMatchObject({ px_distance: 100, true_distance: 40, unit: 'cm' });
  });

  it('draws a stored scale line again where it was drawn; one outside the picture falls back to the middle', () => {
    const line = [
      [12.5, 30],
      [72.5, 110],
    ];
    const layout = fromParameters({ scale: { px_distance: 100, true_distance: 8, unit: 'in', line } }, picture);
    expect(layout.scale).toEqual({ a: [12.5, 30], b: [72.5, 110], length: '8', unit: 'in' });
    const again = toRequest(layout);
    expect(again.ok && again.scale).toEqual({ px_distance: 100, true_distance: 8, unit: 'in', line });
    const outside = fromParameters(
      {
        scale: {
          px_distance: 100,
          true_distance: 8,
          unit: 'in',
          line: [
            [-5, 30],
            [95, 30],
          ],
        },
      },
      picture,
    );
    expect(outside.scale).toMatchObject({ a: [110, 120], b: [210, 120] });
  });
});
