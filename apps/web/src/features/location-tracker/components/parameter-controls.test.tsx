import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { defaultParameterValues, type FieldErrors, type ParameterValues } from '../parameters';
import { ParameterControls } from './parameter-controls';

function Harness({ errors = {} }: { errors?: FieldErrors }) {
  const [values, setValues] = useState<ParameterValues>(defaultParameterValues);
  return (
    <>
      <ParameterControls values={values} onChange={setValues} errors={errors} />
      <output data-testid="values">{JSON.stringify(values)}</output>
    </>
  );
}

const values = (): ParameterValues => JSON.parse(screen.getByTestId('values').textContent ?? '{}');

describe('location settings controls', () => {
  it('show the body tracker’s settings by default, and ezTrack’s under “ezTrack settings” when chosen', async () => {
    render(<Harness />);
    expect((screen.getByLabelText('Tracker') as HTMLSelectElement).value).toBe('body_core');
    expect((screen.getByLabelText('Reference frames') as HTMLInputElement).value).toBe('50');
    await userEvent.click(screen.getByText('Body tracker settings'));
    const body: [string, string][] = [
      ['Noise multiple', '6'],
      ['Minimum contrast', '12'],
      ['Core fraction', '0.4'],
      ['Minimum area (px)', '150'],
      ['Reach (body lengths)', '1.5'],
    ];
    for (const [label, value] of body)
      expect((screen.getByLabelText(label) as HTMLInputElement).value, label).toBe(value);
    expect((screen.getByLabelText('Animal vs arena') as HTMLSelectElement).value).toBe('auto');
    expect(screen.queryByText('ezTrack settings')).toBeNull();
    await userEvent.selectOptions(screen.getByLabelText('Tracker'), 'eztrack');
    expect(screen.getByText(/reproduced exactly/)).toBeTruthy();
    expect(screen.queryByText('Body tracker settings')).toBeNull();
    expect((screen.getByLabelText('Bin length (s)') as HTMLInputElement).value).toBe('');
    const details = screen.getByText('ezTrack settings').closest('details')!;
    expect(details.open).toBe(false);
    await userEvent.click(screen.getByText('ezTrack settings'));
    expect(details.open).toBe(true);
    const expected: [string, string][] = [
      ['Location threshold (percentile)', '99.5'],
      ['Window size (px)', '100'],
      ['Window weight', '0.9'],
      ['Wire kernel (px)', '5'],
    ];
    for (const [label, value] of expected)
      expect((screen.getByLabelText(label) as HTMLInputElement).value, label).toBe(value);
    expect(screen.getByRole('checkbox', { name: 'Use a window' }).getAttribute('aria-checked')).toBe('true');
  });

  it('change values, flags and the method, and reset them', async () => {
    render(<Harness />);
    await userEvent.selectOptions(screen.getByLabelText('Tracker'), 'eztrack');
    await userEvent.click(screen.getByText('ezTrack settings'));
    await userEvent.clear(screen.getByLabelText('Window weight'));
    await userEvent.type(screen.getByLabelText('Window weight'), '0.5');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Remove wires' }));
    await userEvent.selectOptions(screen.getByLabelText('Animal vs arena'), 'light');
    expect(values()).toMatchObject({
      algorithm: 'eztrack',
      method: 'light',
      rmv_wire: false,
      numbers: { window_weight: '0.5' },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Reset to defaults' }));
    expect(values()).toEqual(defaultParameterValues());
  });

  it('open the tracker’s settings to show an error in one of them', () => {
    render(<Harness errors={{ reach: ['Must be between 0.25 and 10.'] }} />);
    expect(screen.getByText('Body tracker settings').closest('details')!.open).toBe(true);
    expect(screen.getByRole('alert').textContent).toBe('Must be between 0.25 and 10.');
  });

  it('open ezTrack settings to show an error in one of them', async () => {
    render(<Harness errors={{ window_size: ['Must be at most 320.'] }} />);
    await userEvent.selectOptions(screen.getByLabelText('Tracker'), 'eztrack');
    expect(screen.getByText('ezTrack settings').closest('details')!.open).toBe(true);
    expect(screen.getByRole('alert').textContent).toBe('Must be at most 320.');
  });
});
