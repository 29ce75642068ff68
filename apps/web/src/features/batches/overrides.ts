/**
 * The parameters a batch may override on one video, per kind: the numbers of the tool's own form (the Movement
 * Detector's, the Location Tracker's; an event detection's are the Movement Detector's event and freezing fields,
 * the very parameters an event-detection run takes), with their labels and ranges.
 */
import {
  BIN_FIELD,
  BODY_FIELDS,
  EZTRACK_FIELDS,
  JUMP_FIELD,
  REFERENCE_FIELD,
} from '@/features/location-tracker/parameters';
import { PARAMETER_FIELDS } from '@/features/movement-detector/parameters';
import type { ProtocolKind } from '@/features/protocols/api';

export interface OverrideField {
  name: string;
  label: string;
  min: number;
  max?: number | undefined;
  /** Empty means "off" (null) for these; the others need a number. */
  optional: boolean;
}

const fromFields = (
  fields: readonly { name: string; label: string; min: number; max?: number; defaultValue: number | null }[],
) =>
  fields.map((field) => ({
    name: field.name,
    label: field.label,
    min: field.min,
    max: field.max,
    optional: field.defaultValue === null,
  }));

export const OVERRIDE_FIELDS: Record<ProtocolKind, readonly OverrideField[]> = {
  movement_detection: fromFields(PARAMETER_FIELDS),
  location_tracking: fromFields([...EZTRACK_FIELDS, REFERENCE_FIELD, ...BODY_FIELDS, BIN_FIELD, JUMP_FIELD]),
  event_detection: fromFields(PARAMETER_FIELDS.filter((field) => field.group !== 'detection')),
};

/** A typed value as the override sends it, or why it cannot be sent (ranges are the server's to check). */
export function readOverride(field: OverrideField, text: string): { value: number | null } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === '') return field.optional ? { value: null } : { error: 'Enter a number.' };
  const value = Number(trimmed);
  return Number.isFinite(value) ? { value } : { error: 'Enter a number.' };
}
