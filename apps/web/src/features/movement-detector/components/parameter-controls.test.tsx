import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { defaultParameterValues, type FieldErrors, type ParameterValues, serverFieldErrors } from '../parameters';
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

describe('parameter controls', () => {
  it('show each parameter with its default, range and help', () => {
    render(<Harness />);
    const expected: [string, string, string | null, string | null][] = [
      ['Threshold', '20', '0', '255'],
      ['Opening', '0', '0', '10000'],
      ['Closing', '0', '0', '10000'],
      ['Small-object removal', '0', '0', '100000000'],
      ['Event threshold (k × noise)', '3', '1', '10'],
      ['Absolute event threshold', '', '0', null],
      ['Refractory period (s)', '0.5', '0', '60'],
      ['Freeze threshold', '', '0', null],
      ['Minimum freeze (s)', '1', '0', '3600'],
      ['Bin length (s)', '60', '0', null],
    ];
    for (const [label, value, min, max] of expected) {
      const input = screen.getByLabelText(label) as HTMLInputElement;
      expect(input.value, label).toBe(value);
      expect(input.getAttribute('min'), label).toBe(min);
      expect(input.getAttribute('max'), label).toBe(max);
    }
    expect(screen.getByText(/overrides k/)).toBeTruthy();
    expect(screen.getByText(/0 = off/, { selector: '#md-param-opening-description' })).toBeTruthy();
  });

  it('show the server’s field errors next to their fields', () => {
    const error = new ApiError(
      400,
      {
        errors: {
          'parameters.threshold': ['Must be between 0 and 255.'],
          'parameters.refractory_s': ['Must be between 0 and 60.'],
        },
      },
      'POST',
      '/api/…/analysis/',
    );
    render(<Harness errors={serverFieldErrors(error)} />);
    const threshold = screen.getByLabelText('Threshold');
    expect(threshold.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(threshold.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Must be between 0 and 255.',
    );
    const refractory = screen.getByLabelText('Refractory period (s)');
    expect(document.getElementById(refractory.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Must be between 0 and 60.',
    );
    expect(screen.getByLabelText('Opening').getAttribute('aria-invalid')).toBeNull();
    expect(screen.getAllByRole('alert')).toHaveLength(2);
  });

  it('keep typing as typed and reset to the defaults', async () => {
    render(<Harness />);
    const threshold = screen.getByLabelText('Threshold');
    await userEvent.clear(threshold);
    await userEvent.type(threshold, '35');
    await userEvent.type(screen.getByLabelText('Freeze threshold'), '12');
    expect(JSON.parse(screen.getByTestId('values').textContent!)).toMatchObject({
      threshold: '35',
      freeze_threshold: '12',
    });
    await userEvent.click(screen.getByRole('button', { name: 'Reset to defaults' }));
    expect(JSON.parse(screen.getByTestId('values').textContent!)).toMatchObject({
      threshold: '20',
      freeze_threshold: '',
    });
  });
});
