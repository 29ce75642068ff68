import { describe, expect, it } from 'vitest';
import { attachmentDisposition, downloadFileName, fileNamePart, runNamePart } from './download-names.js';

describe('download names', () => {
  it('names a file after subject, video and run, safe for every file system', () => {
    const run = runNamePart({ kind: 'movement_detection', createdAt: new Date('2026-11-27T23:59:00Z') });
    expect(downloadFileName(['M3', 'open field.mp4', run], 'csv')).toBe('M3_open-field_movement-2026-11-27.csv');
    const location = runNamePart({ kind: 'location_tracking', createdAt: new Date('2026-11-27T08:00:00Z') });
    expect(downloadFileName(['M3', 'box.avi', location, 'heatmap'], 'svg')).toBe(
      'M3_box_location-2026-11-27_heatmap.svg',
    );
    expect(fileNamePart('  a/b\\c:d*e?f"g<h>i|j\u0001k  ')).toBe('a-b-c-d-e-f-g-h-i-j-k');
    expect(fileNamePart('...hidden.')).toBe('hidden');
    expect(fileNamePart('x'.repeat(200))).toHaveLength(60);
    expect(downloadFileName(['///', null, ''], 'tsv')).toBe('export.tsv');
  });

  it('gives an ASCII filename and the UTF-8 one in filename*', () => {
    expect(attachmentDisposition('Maus-Ä_Käfig (1).csv')).toBe(
      `attachment; filename="Maus-A_Kafig (1).csv"; filename*=UTF-8''Maus-%C3%84_K%C3%A4fig%20%281%29.csv`,
    );
    expect(attachmentDisposition('小鼠.csv')).toBe(
      `attachment; filename="__.csv"; filename*=UTF-8''%E5%B0%8F%E9%BC%A0.csv`,
    );
  });
});
