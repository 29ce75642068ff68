import type { TimeRange } from '@app/time-ranges';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { BypassUpload } from './bypass-upload';

function Harness({ serverErrors, durationS }: { serverErrors?: string[]; durationS?: number }) {
  const [ranges, setRanges] = useState<TimeRange[]>([]);
  return (
    <>
      <BypassUpload ranges={ranges} onChange={setRanges} serverErrors={serverErrors} durationS={durationS} />
      <output data-testid="ranges">{JSON.stringify(ranges)}</output>
    </>
  );
}

const input = () => screen.getByLabelText('Bypass ranges (CSV)') as HTMLInputElement;
const csv = (name: string, text: string) => new File([text], name, { type: 'text/csv' });

async function choose(file: File) {
  // The picker would filter by `accept`; a user can still pick any file with "All files".
  await userEvent.setup({ applyAccept: false }).upload(input(), file);
}

describe('bypass CSV upload (spec §5 messages under the control)', () => {
  const cases: [string, File, string][] = [
    ['a name without .csv', csv('ranges.txt', '0,1\n'), 'File is not a CSV'],
    ['an empty file', csv('empty.csv', ''), 'Could not read the file or file is empty.'],
    ['a header only', csv('header.csv', 'start,end\n'), 'CSV has no data rows.'],
    ['three values', csv('three.csv', '0,1\n2,3,4\n'), 'Row 2 does not have exactly two values.'],
    ['text in a row', csv('text.csv', '0,1\n2,abc\n'), 'Row 2 contains non-numeric values.'],
    ['start after end', csv('backwards.csv', '0,1\n3,2\n'), 'Row 2 must have start time less than the end time.'],
    ['an overlap', csv('overlap.csv', '0,2\n1.5,3\n'), 'Row 2: value 1.5 is not non-decreasing.'],
  ];
  for (const [what, file, message] of cases) {
    it(`${what}: ${message}`, async () => {
      render(<Harness />);
      await choose(file);
      expect((await screen.findByRole('alert')).textContent).toBe(message);
      expect(screen.getByTestId('ranges').textContent).toBe('[]');
    });
  }

  it('no file chosen: CSV is empty', async () => {
    render(<Harness />);
    fireEvent.change(input(), { target: { files: [] } });
    expect((await screen.findByRole('alert')).textContent).toBe('CSV is empty');
  });

  it('a read failure: Error reading file. Please try again.', async () => {
    render(<Harness />);
    const file = csv('ranges.csv', '0,1\n');
    Object.defineProperty(file, 'text', { value: () => Promise.reject(new Error('NotReadableError')) });
    fireEvent.change(input(), { target: { files: [file] } });
    expect((await screen.findByRole('alert')).textContent).toBe('Error reading file. Please try again.');
  });

  it('a good file gives its ranges and count; a broken one after it replaces them; Clear empties', async () => {
    render(<Harness />);
    await choose(csv('bypass.csv', 'start,end\n0.5,1\n2,3.5\n'));
    await waitFor(() => expect(screen.getByTestId('ranges').textContent).toBe('[[0.5,1],[2,3.5]]'));
    expect(screen.getByTestId('bypass-summary').textContent).toContain('2 ranges bypassed (2 s)');
    expect(screen.queryByRole('alert')).toBeNull();

    await choose(csv('bad.csv', '1,0\n'));
    expect((await screen.findByRole('alert')).textContent).toBe('Row 1 must have start time less than the end time.');
    expect(screen.getByTestId('ranges').textContent).toBe('[]');

    await choose(csv('again.csv', '0,1\n'));
    await waitFor(() => expect(screen.getByTestId('ranges').textContent).toBe('[[0,1]]'));
    expect(screen.queryByRole('alert')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Clear ranges' }));
    expect(screen.getByTestId('ranges').textContent).toBe('[]');
    expect(screen.queryByTestId('bypass-summary')).toBeNull();
  });

  it('cuts ranges at the end of the video and says which rows; counts only time that exists', async () => {
    render(<Harness durationS={77.66588999999999} />);
    await choose(csv('sleep.csv', 'start,end\n10,20\n70,200\n300,400\n'));
    await waitFor(() => expect(screen.getByTestId('ranges').textContent).toBe('[[10,20],[70,77.66588999999999]]'));
    expect(screen.getByTestId('bypass-notices').textContent).toBe(
      'Row 2 (70–200 s) ends after the video (77.66589 s): clipped to 70–77.66589 s.' +
        'Row 3 (300–400 s) starts at or after the end of the video (77.66589 s): left out.',
    );
    expect(screen.getByTestId('bypass-summary').textContent).toContain('2 ranges bypassed (17.666 s)');

    // A file inside the video has nothing to say.
    await choose(csv('inside.csv', '0;1,5\n'));
    await waitFor(() => expect(screen.getByTestId('ranges').textContent).toBe('[[0,1.5]]'));
    expect(screen.queryByTestId('bypass-notices')).toBeNull();
  });

  it('shows the server’s bypass_ranges message under the control', () => {
    render(<Harness serverErrors={['Row 1: times cannot be negative.']} />);
    expect(screen.getByRole('alert').textContent).toBe('Row 1: times cannot be negative.');
    expect(input().getAttribute('aria-invalid')).toBe('true');
  });
});
