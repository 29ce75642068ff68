import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { PoseSet } from '../api';
import { type FormErrors, formFor, type Measure, seriesParameters } from '../derived-series';
import { testSet } from '../pose.test-support';
import { DerivedSeriesForm } from './derived-series-form';

/** Two mice and an object, a unique body part of the file under DeepLabCut's `single`. */
const trio = testSet({
  individuals: ['mouse1', 'mouse2', 'single'],
  bodyparts: ['nose', 'neck', 'tail', 'object'],
  keypoints: [
    ...['mouse1', 'mouse2'].flatMap((individual) =>
      ['nose', 'neck', 'tail'].map((bodypart) => ({ individual, bodypart })),
    ),
    { individual: 'single', bodypart: 'object' },
  ],
});
const lone = testSet({
  individuals: ['single'],
  bodyparts: ['nose', 'object'],
  keypoints: [
    { individual: 'single', bodypart: 'nose' },
    { individual: 'single', bodypart: 'object' },
  ],
});

/** The builder as the Pose page holds it: the form's state, and the parameters it sends on Compute. */
function Builder({ set, measure, sent }: { set: PoseSet; measure: Measure; sent: Record<string, unknown>[] }) {
  const [form, setForm] = useState(() => formFor(set, measure));
  const [errors, setErrors] = useState<FormErrors>({});
  const submit = () => {
    const read = seriesParameters(form, set);
    setErrors(read.ok ? {} : read.errors);
    if (read.ok) sent.push(read.parameters);
  };
  return (
    <DerivedSeriesForm
      sets={[set]}
      form={form}
      onChange={setForm}
      errors={errors}
      onSubmit={submit}
      pending={false}
      disabled={false}
    />
  );
}

const optionsOf = (label: string) =>
  within(screen.getByLabelText(label, { exact: true }))
    .getAllByRole('option')
    .map((option) => option.textContent);

describe('the derived-series builder', () => {
  it('lets each role pick "individual · part" of a set with several individuals, the unique parts too', async () => {
    const user = userEvent.setup();
    const sent: Record<string, unknown>[] = [];
    render(<Builder set={trio} measure="distance" sent={sent} />);
    // No individual for the whole measure: each role names its own.
    expect(screen.queryByLabelText('Individual')).toBeNull();
    const everyPart = [
      'Choose…',
      'mouse1 · nose',
      'mouse1 · neck',
      'mouse1 · tail',
      'mouse2 · nose',
      'mouse2 · neck',
      'mouse2 · tail',
      'single · object',
    ];
    expect(optionsOf('From')).toEqual(everyPart);
    expect(optionsOf('To')).toEqual(everyPart);

    // mouse1's nose to the object: "nose within 2 cm of the object".
    await user.selectOptions(screen.getByLabelText('From', { exact: true }), 'mouse1 · nose');
    await user.selectOptions(screen.getByLabelText('To', { exact: true }), 'single · object');
    await user.type(screen.getByLabelText('Pixels'), '50');
    await user.type(screen.getByLabelText('are'), '2');
    await user.click(screen.getByRole('button', { name: 'Compute series' }));
    expect(sent.at(-1)).toEqual({
      pose_uuid: trio.pose_uuid,
      measure: 'distance',
      parts: [
        { individual: 'mouse1', part: 'nose' },
        { individual: 'single', part: 'object' },
      ],
      likelihood_cutoff: 0.6,
      max_gap_frames: 5,
      scale: { px_distance: 50, true_distance: 2, unit: 'cm' },
    });

    // Two mice's noses (a social distance) are two parts though the names are the same.
    await user.selectOptions(screen.getByLabelText('To', { exact: true }), 'mouse2 · nose');
    await user.click(screen.getByRole('button', { name: 'Compute series' }));
    expect(sent.at(-1)?.parts).toEqual([
      { individual: 'mouse1', part: 'nose' },
      { individual: 'mouse2', part: 'nose' },
    ]);

    // Parts of one individual go as they always did: the individual and the names.
    await user.selectOptions(screen.getByLabelText('To', { exact: true }), 'mouse1 · tail');
    await user.click(screen.getByRole('button', { name: 'Compute series' }));
    expect(sent.at(-1)).toMatchObject({ individual: 'mouse1', parts: ['nose', 'tail'] });

    // The same keypoint twice is refused before anything is sent.
    await user.selectOptions(screen.getByLabelText('To', { exact: true }), 'mouse1 · nose');
    await user.click(screen.getByRole('button', { name: 'Compute series' }));
    expect(screen.getByRole('alert').textContent).toContain('Choose different body parts.');
    expect(sent).toHaveLength(3);
  });

  it('an angle takes three roles, each from any individual', async () => {
    const user = userEvent.setup();
    const sent: Record<string, unknown>[] = [];
    render(<Builder set={trio} measure="angle" sent={sent} />);
    await user.selectOptions(screen.getByLabelText('End a', { exact: true }), 'mouse1 · nose');
    await user.selectOptions(screen.getByLabelText('Joint b (the angle is here)', { exact: true }), 'single · object');
    await user.selectOptions(screen.getByLabelText('End c', { exact: true }), 'mouse2 · nose');
    await user.click(screen.getByRole('button', { name: 'Compute series' }));
    expect(sent).toEqual([
      expect.objectContaining({
        measure: 'angle',
        parts: [
          { individual: 'mouse1', part: 'nose' },
          { individual: 'single', part: 'object' },
          { individual: 'mouse2', part: 'nose' },
        ],
      }),
    ]);
  });

  it('a set with one individual offers the part names alone and sends no individual', async () => {
    const user = userEvent.setup();
    const sent: Record<string, unknown>[] = [];
    render(<Builder set={lone} measure="distance" sent={sent} />);
    expect(optionsOf('From')).toEqual(['Choose…', 'nose', 'object']);
    await user.selectOptions(screen.getByLabelText('From', { exact: true }), 'nose');
    await user.selectOptions(screen.getByLabelText('To', { exact: true }), 'object');
    await user.click(screen.getByRole('button', { name: 'Compute series' }));
    expect(sent).toEqual([expect.objectContaining({ parts: ['nose', 'object'] })]);
    expect('individual' in sent[0]!).toBe(false);
  });

  it('shows the server’s message on the parts under them', () => {
    render(
      <DerivedSeriesForm
        sets={[trio]}
        form={formFor(trio, 'distance')}
        onChange={() => {}}
        errors={{ parts: ['Part 2: single has no body part "paw"; its body parts: object.'] }}
        onSubmit={() => {}}
        pending={false}
        disabled={false}
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('Part 2: single has no body part "paw"');
  });
});
