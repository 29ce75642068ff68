import { describe, expect, it } from 'vitest';
import { dispositionFileName } from './download';

describe('download file names', () => {
  it('takes the UTF-8 name when the server gives one, else the ASCII one', () => {
    expect(
      dispositionFileName(
        `attachment; filename="M3_Kafig_movement-2026-11-27_events.csv"; filename*=UTF-8''M3_K%C3%A4fig_movement-2026-11-27_events.csv`,
      ),
    ).toBe('M3_Käfig_movement-2026-11-27_events.csv');
    expect(dispositionFileName('attachment; filename="series.csv"')).toBe('series.csv');
    expect(dispositionFileName(`attachment; filename="a.csv"; filename*=UTF-8''%E0%A4`)).toBe('a.csv');
    expect(dispositionFileName('inline')).toBeNull();
  });
});
