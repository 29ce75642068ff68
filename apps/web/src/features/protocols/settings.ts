/**
 * A protocol's settings as its page edits them, one state per kind, each held in the very form values of the tool
 * that makes such runs (the Movement Detector's and the Location Tracker's parameters, event detection's form), so
 * their controls and checks are reused as they are. What those forms do not edit — ROIs, zones, exclusions, the
 * scale, a reference, freezing settings of an event detection — is carried over from the version being edited
 * (`base`), because PATCH takes the parameters whole (ADR 031).
 */
import type { TimeRange } from '@app/time-ranges';
import {
  type EventForm,
  eventFormOf,
  readEventForm,
  withoutParametersPrefix,
} from '@/features/analysis-logs/components/event-parameter-fields';
import {
  BIN_FIELD,
  BODY_FIELDS,
  EZTRACK_FIELDS,
  JUMP_FIELD,
  type ParameterValues as LocationValues,
  locationFieldErrors,
  parameterValuesFromRun as locationValuesOf,
  parseParameterValues as parseLocationValues,
  REFERENCE_FIELD,
} from '@/features/location-tracker/parameters';
import {
  type FieldErrors,
  type ParameterValues as MovementValues,
  parameterValuesFromRun as movementValuesOf,
  PARAMETER_FIELDS,
  parseParameterValues as parseMovementValues,
  serverFieldErrors,
} from '@/features/movement-detector/parameters';
import type { ProtocolKind } from './api';

type Parameters = Record<string, unknown>;

export type SettingsState =
  | { kind: 'movement_detection'; values: MovementValues; bypass: TimeRange[]; base: Parameters }
  | { kind: 'location_tracking'; values: LocationValues; base: Parameters }
  | { kind: 'event_detection'; form: EventForm; base: Parameters };

function bypassOf(raw: unknown): TimeRange[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(
    (range): range is TimeRange => Array.isArray(range) && typeof range[0] === 'number' && typeof range[1] === 'number',
  );
}

/** The form state of stored parameters (a version's, or {} for a new protocol: the defaults). */
export function settingsOf(kind: ProtocolKind, parameters: Parameters): SettingsState {
  switch (kind) {
    case 'movement_detection':
      return {
        kind,
        values: movementValuesOf(parameters),
        bypass: bypassOf(parameters.bypass_ranges),
        base: parameters,
      };
    case 'location_tracking':
      return { kind, values: locationValuesOf(parameters), base: parameters };
    case 'event_detection':
      return { kind, form: eventFormOf(parameters), base: parameters };
  }
}

/** The parameters to send (whole), or the fields the browser can already tell are wrong. */
export function readSettings(
  state: SettingsState,
): { ok: true; parameters: Parameters } | { ok: false; errors: FieldErrors } {
  switch (state.kind) {
    case 'movement_detection': {
      const parsed = parseMovementValues(state.values);
      if (!parsed.ok) return parsed;
      return { ok: true, parameters: { ...state.base, ...parsed.parameters, bypass_ranges: state.bypass } };
    }
    case 'location_tracking': {
      const parsed = parseLocationValues(state.values);
      if (!parsed.ok) return parsed;
      return { ok: true, parameters: { ...state.base, ...parsed.parameters } };
    }
    case 'event_detection': {
      const read = readEventForm(state.form);
      if (!read.parameters) return { ok: false, errors: read.errors };
      return { ok: true, parameters: { ...state.base, ...read.parameters } };
    }
  }
}

/** A refused save's messages, keyed as the kind's form shows them (`parameters.threshold` → `threshold`). */
export function settingsServerErrors(kind: ProtocolKind, error: unknown): FieldErrors {
  switch (kind) {
    case 'movement_detection':
      return serverFieldErrors(error);
    case 'location_tracking':
      return locationFieldErrors(error);
    case 'event_detection':
      return withoutParametersPrefix(serverFieldErrors(error));
  }
}

/**
 * The settings the kind's form does not edit, which the protocol keeps as they are: geometry is drawn on a
 * video (in the tool, or per video when a batch starts).
 */
export const KEPT_KEYS: Record<ProtocolKind, readonly string[]> = {
  movement_detection: ['rois'],
  location_tracking: ['zones', 'exclusions', 'scale', 'reference'],
  event_detection: ['freeze_threshold', 'min_freeze_s', 'bin_s'],
};

/** The fields each kind's form shows a message under; a refused save's other messages are said below the form. */
export const SHOWN_BY_FORM: Record<ProtocolKind, ReadonlySet<string>> = {
  movement_detection: new Set([...PARAMETER_FIELDS.map((field) => field.name), 'bypass_ranges']),
  location_tracking: new Set([
    'algorithm',
    'method',
    'polarity',
    ...[...EZTRACK_FIELDS, ...BODY_FIELDS, REFERENCE_FIELD, BIN_FIELD, JUMP_FIELD].map((field) => field.name),
  ]),
  event_detection: new Set(['event_threshold_k', 'event_threshold', 'refractory_s']),
};
