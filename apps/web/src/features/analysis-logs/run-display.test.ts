import { describe, expect, it } from 'vitest';
import { formatNumber, MAX_LISTED_RANGES, parameterRows, summaryRows } from './run-display';

const byKey = (rows: { key: string; label: string; value: string }[]) =>
  Object.fromEntries(rows.map((row) => [row.key, row.value]));

describe('run parameters in words', () => {
  it('puts the known parameters first in a fixed order and the unknown ones after, by name', () => {
    const rows = parameterRows({ zeta: 1, refractory_s: 0.5, alpha: 'x', threshold: 20, rois: [] });
    expect(rows.map((row) => row.key)).toEqual(['rois', 'threshold', 'refractory_s', 'alpha', 'zeta']);
    expect(rows.find((row) => row.key === 'zeta')?.label).toBe('zeta');
  });

  it('reads off-switches, sizes, seconds and unset thresholds as people say them', () => {
    const values = byKey(
      parameterRows({
        rois: [],
        bypass_ranges: [],
        opening: 0,
        closing: 5,
        small_object_removal: 50,
        event_threshold_k: 2.5,
        event_threshold: 12,
        freeze_threshold: null,
        min_freeze_s: 1,
        flag: true,
        nested: { a: 1 },
      }),
    );
    expect(values).toEqual({
      rois: 'Whole frame',
      bypass_ranges: 'None',
      opening: 'Off',
      closing: '5×5 px',
      small_object_removal: 'Regions under 50 px',
      event_threshold_k: '2.5 × noise top',
      event_threshold: '12',
      freeze_threshold: 'Off',
      min_freeze_s: '1 s',
      flag: 'Yes',
      nested: '{"a":1}',
    });
  });

  it('lists one line per ROI and counts bypass ranges past the first ten', () => {
    const values = byKey(
      parameterRows({
        rois: [
          { start_s: 0, x: 0, y: 0, width: 320, height: 240 },
          { start_s: 90.5, x: 12, y: 8, width: 40, height: 30 },
        ],
        bypass_ranges: Array.from({ length: MAX_LISTED_RANGES + 3 }, (_, i) => [i * 10, i * 10 + 2.5]),
      }),
    );
    expect(values.rois).toBe('From 0 s: 320×240 px at (0, 0)\nFrom 90.5 s: 40×30 px at (12, 8)');
    expect(values.bypass_ranges?.startsWith('0–2.5 s, 10–12.5 s, ')).toBe(true);
    expect(values.bypass_ranges?.endsWith('90–92.5 s and 3 more')).toBe(true);
  });

  it('names a location run’s settings as the Location Tracker does, its bins as result bins', () => {
    const parameters = {
      algorithm: 'body_core',
      zones: [
        {
          name: 'Centre',
          points: [
            [0, 0],
            [10, 0],
            [10, 10],
            [0, 10],
          ],
        },
      ],
      exclusions: [],
      scale: {
        px_distance: 200,
        true_distance: 40,
        unit: 'cm',
        line: [
          [0, 0],
          [200, 0],
        ],
      },
      reference: { frames: [0, 120] },
      bin_s: 60,
      jump_px: null,
      noise_k: 6,
    };
    const rows = parameterRows(parameters, 'location_tracking');
    expect(rows.map((row) => row.key)).toEqual([
      'algorithm',
      'zones',
      'exclusions',
      'scale',
      'reference',
      'bin_s',
      'jump_px',
      'noise_k',
    ]);
    expect(byKey(rows)).toEqual({
      algorithm: 'Body centre (default)',
      zones: 'Centre: 4 points',
      exclusions: 'None',
      scale: '200 px = 40 cm',
      reference: 'Frames 0, 120',
      bin_s: '60 s',
      jump_px: 'A body length',
      noise_k: '6',
    });
    expect(rows.find((row) => row.key === 'bin_s')?.label).toBe('Bin length (s)');
    expect(parameterRows({ bin_s: 60 }).find((row) => row.key === 'bin_s')?.label).toBe('Freezing time bin');
  });

  it('drops float noise from numbers', () => {
    expect(formatNumber(0.1 + 0.2)).toBe('0.3');
    expect(formatNumber(20)).toBe('20');
    expect(formatNumber(1.23456, 2)).toBe('1.23');
  });
});

describe('run summary in words', () => {
  const summary = {
    samples: 1800,
    valid_samples: 1790,
    duration_s: 60,
    events: 4,
    event_rate_per_min: null,
    threshold: 9,
    noise_top: 3,
    freezing: {
      percent: 37.54,
      freezing_frames: 672,
      valid_frames: 1790,
      bins: [
        { start_s: 0, end_s: 30, percent: 40 },
        { start_s: 30, end_s: 60, percent: 35 },
      ],
    },
    frames_per_second: null,
  };

  it('gives freezing as a percentage of valid frames with its bins, and a dash for missing figures', () => {
    const values = byKey(summaryRows(summary));
    expect(values.freezing).toBe('37.5 % (672 of 1790 frames, 2 bins)');
    expect(values.event_rate_per_min).toBe('—');
    expect(values.frames_per_second).toBe('—');
    expect(values.duration_s).toBe('01:00');
  });

  it('says when freezing was not measured', () => {
    expect(byKey(summaryRows({ ...summary, freezing: null })).freezing).toBe('Not measured');
  });
});
