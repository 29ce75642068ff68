/**
 * The derived-series builder's rules (ADR 032, 037), apart from React so they are unit-tested: which body parts a
 * measure takes and what each role is called, what a role may pick, and the form as the `pose_series` parameters.
 * A run is named by the shared `features/analysis/series-names.ts`.
 */
import type { AnalysisRun } from '@/features/analysis/api';
import { partLabel, posePartsOf } from '@/features/analysis/series-names';
import type { PoseSet } from './api';

export const MEASURES = [
  { value: 'speed', label: 'Speed of a body part', roles: ['Body part'] },
  { value: 'distance', label: 'Distance between two body parts', roles: ['From', 'To'] },
  { value: 'angle', label: 'Angle at a joint', roles: ['End a', 'Joint b (the angle is here)', 'End c'] },
] as const;
export type Measure = (typeof MEASURES)[number]['value'];

export const SCALE_UNITS = ['mm', 'cm', 'm', 'in'] as const;
export type ScaleUnit = (typeof SCALE_UNITS)[number];

/** A body part with its individual: one keypoint of the set, as a role of the measure takes it. */
export interface PartChoice {
  individual: string;
  /** Empty: not chosen yet. */
  part: string;
}

export interface SeriesForm {
  poseUuid: string;
  measure: Measure;
  /** One per role, as many as the measure takes (the rest ignored). */
  parts: PartChoice[];
  /** Numbers as typed. */
  cutoff: string;
  maxGap: string;
  /** Real units: a known length in pixels and what it measures; empty pixels: no scale. */
  scalePx: string;
  scaleTrue: string;
  scaleUnit: ScaleUnit;
}

/** The server's defaults (ADR 032): DeepLabCut's pcutoff, and gaps of up to 5 frames filled. */
export const DEFAULT_CUTOFF = '0.6';
export const DEFAULT_MAX_GAP = '5';

export const rolesOf = (measure: Measure): readonly string[] =>
  MEASURES.find((item) => item.value === measure)?.roles ?? [];

/** The body parts an individual of the set has, in the set's order. */
export function partsOf(set: Pick<PoseSet, 'keypoints'>, individual: string): string[] {
  return set.keypoints.filter((k) => k.individual === individual).map((k) => k.bodypart);
}

/** A choice as an option's value (an individual and a part may hold any character). */
export const choiceKey = (choice: PartChoice) => (choice.part ? JSON.stringify([choice.individual, choice.part]) : '');

/** An option's value back into the choice. */
export function choiceOf(key: string): PartChoice {
  if (!key) return { individual: '', part: '' };
  const [individual, part] = JSON.parse(key) as [string, string];
  return { individual, part };
}

/**
 * What each role may pick: every keypoint of the set — with several individuals, as "individual · part" (a
 * multi-animal file's unique parts under `single` too), so one measure can take parts of different individuals
 * (ADR 037); with one, the part names alone.
 */
export function partOptions(set: Pick<PoseSet, 'keypoints' | 'individuals'>): { value: string; label: string }[] {
  const several = set.individuals.length > 1;
  return set.keypoints.map((k) => {
    const choice = { individual: k.individual, part: k.bodypart };
    return { value: choiceKey(choice), label: several ? partLabel(choice) : k.bodypart };
  });
}

/** A fresh form on a set: its first individual and its first parts, the defaults for the rest. */
export function formFor(set: PoseSet, measure: Measure = 'speed'): SeriesForm {
  const individual = set.individuals[0] ?? '';
  return {
    poseUuid: set.pose_uuid,
    measure,
    parts: partsOf(set, individual)
      .slice(0, 3)
      .map((part) => ({ individual, part })),
    cutoff: DEFAULT_CUTOFF,
    maxGap: DEFAULT_MAX_GAP,
    scalePx: '',
    scaleTrue: '',
    scaleUnit: 'cm',
  };
}

/** A run's parameters back into the form (Reuse settings); the set's defaults where the run is silent. */
export function formFromRun(run: Pick<AnalysisRun, 'parameters'>, set: PoseSet): SeriesForm {
  const p = run.parameters;
  const base = formFor(set, MEASURES.some((m) => m.value === p.measure) ? (p.measure as Measure) : 'speed');
  const scale = p.scale as { px_distance?: unknown; true_distance?: unknown; unit?: unknown } | null | undefined;
  const named = posePartsOf(p);
  return {
    ...base,
    // A bare name of a run that named no individual is a part of the set's only one.
    parts:
      named.length > 0
        ? named.map((part) => ({ individual: part.individual ?? set.individuals[0] ?? '', part: part.part }))
        : base.parts,
    cutoff: typeof p.likelihood_cutoff === 'number' ? String(p.likelihood_cutoff) : base.cutoff,
    maxGap: typeof p.max_gap_frames === 'number' ? String(p.max_gap_frames) : base.maxGap,
    scalePx: typeof scale?.px_distance === 'number' ? String(scale.px_distance) : '',
    scaleTrue: typeof scale?.true_distance === 'number' ? String(scale.true_distance) : '',
    scaleUnit: SCALE_UNITS.find((unit) => unit === scale?.unit) ?? 'cm',
  };
}

export type FormErrors = Record<string, string[] | undefined>;

/**
 * The form as `pose_series` parameters, or the fields to fix (the server checks the rest against the set). Parts of
 * one individual go as names (with the individual when the set has several), as runs always named them; parts of
 * different individuals as `{individual, part}`.
 */
export function seriesParameters(
  form: SeriesForm,
  set: Pick<PoseSet, 'individuals'>,
): { ok: true; parameters: Record<string, unknown> } | { ok: false; errors: FormErrors } {
  const errors: FormErrors = {};
  const parts = form.parts.slice(0, rolesOf(form.measure).length);
  while (parts.length < rolesOf(form.measure).length) parts.push({ individual: '', part: '' });
  if (parts.some((part) => !part.part)) errors.parts = ['Choose every body part.'];
  else if (new Set(parts.map(choiceKey)).size !== parts.length) errors.parts = ['Choose different body parts.'];
  const cutoff = Number(form.cutoff);
  if (form.cutoff.trim() === '' || !(cutoff >= 0 && cutoff <= 1)) errors.likelihood_cutoff = ['A number from 0 to 1.'];
  const maxGap = Number(form.maxGap);
  if (!/^\d+$/.test(form.maxGap.trim()) || maxGap > 100_000) {
    errors.max_gap_frames = ['A whole number of frames from 0 to 100000.'];
  }
  let scale: Record<string, unknown> | null = null;
  if (form.measure !== 'angle' && (form.scalePx.trim() !== '' || form.scaleTrue.trim() !== '')) {
    const px = Number(form.scalePx);
    const length = Number(form.scaleTrue);
    if (!(px > 0) || !(length > 0)) errors.scale = ['Give both lengths, each more than 0, or neither.'];
    else scale = { px_distance: px, true_distance: length, unit: form.scaleUnit };
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const owners = new Set(parts.map((part) => part.individual));
  const named =
    owners.size > 1
      ? { parts: parts.map(({ individual, part }) => ({ individual, part })) }
      : {
          // A set with one individual needs none named.
          ...(set.individuals.length > 1 ? { individual: parts[0]!.individual } : {}),
          parts: parts.map((part) => part.part),
        };
  return {
    ok: true,
    parameters: {
      pose_uuid: form.poseUuid,
      measure: form.measure,
      ...named,
      likelihood_cutoff: cutoff,
      max_gap_frames: maxGap,
      scale,
    },
  };
}

/** The server's `parameters.<field>` (and `parameters.scale.<…>`) messages under the form's own field names. */
export function formErrors(server: FormErrors): FormErrors {
  const out: FormErrors = {};
  for (const [key, messages] of Object.entries(server)) {
    const field = key.replace(/^parameters\./, '').split('.')[0]!;
    // The individual is chosen with each part: its messages belong there.
    const own = field === 'individual' ? 'parts' : field;
    out[own] = [...(out[own] ?? []), ...(messages ?? [])];
  }
  return out;
}
