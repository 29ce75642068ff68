import { EventParameterFields } from '@/features/analysis-logs/components/event-parameter-fields';
import { ParameterControls as LocationControls } from '@/features/location-tracker/components/parameter-controls';
import { BypassUpload } from '@/features/movement-detector/components/bypass-upload';
import { ParameterControls as MovementControls } from '@/features/movement-detector/components/parameter-controls';
import type { FieldErrors } from '@/features/movement-detector/parameters';
import { KEPT_KEYS, type SettingsState } from '../settings';
import { ParameterList } from './parameter-list';

/**
 * A protocol's settings in the form of the tool that makes its runs: the Movement Detector's parameters and bypass
 * ranges, the Location Tracker's settings, or event detection's. What that form does not edit is listed, kept.
 */
export function ProtocolSettingsForm({
  state,
  onChange,
  errors,
}: {
  state: SettingsState;
  onChange: (state: SettingsState) => void;
  errors: FieldErrors;
}) {
  const kept = Object.fromEntries(
    KEPT_KEYS[state.kind].filter((key) => key in state.base).map((key) => [key, state.base[key]]),
  );
  return (
    <div className="grid grid-cols-1 gap-6" data-testid="protocol-settings" data-kind={state.kind}>
      {state.kind === 'movement_detection' ? (
        <>
          <MovementControls
            values={state.values}
            onChange={(values) => onChange({ ...state, values })}
            errors={errors}
          />
          <BypassUpload
            ranges={state.bypass}
            onChange={(bypass) => onChange({ ...state, bypass })}
            serverErrors={errors.bypass_ranges}
          />
        </>
      ) : state.kind === 'location_tracking' ? (
        <LocationControls values={state.values} onChange={(values) => onChange({ ...state, values })} errors={errors} />
      ) : (
        <div className="grid grid-cols-1 gap-4">
          <EventParameterFields
            idPrefix="protocol-event"
            form={state.form}
            onChange={(form) => onChange({ ...state, form })}
            errors={errors}
          />
        </div>
      )}
      {Object.keys(kept).length > 0 ? (
        <section className="grid gap-2" data-testid="protocol-kept">
          <h3 className="font-medium text-muted-foreground text-xs uppercase tracking-wide">Kept as they are</h3>
          <p className="text-muted-foreground text-xs">
            {state.kind === 'event_detection'
              ? 'The freezing summary comes from the run the protocol was saved from.'
              : 'Drawn on a video: save them from the tool, or adjust them per video when a batch starts.'}
          </p>
          <ParameterList kind={state.kind} parameters={kept} />
        </section>
      ) : null}
    </div>
  );
}
