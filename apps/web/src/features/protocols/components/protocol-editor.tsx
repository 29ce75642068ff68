import { Loader2, Save } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/ui/button';
import { CappedInput } from '@/components/ui/capped-input';
import { Field, fieldAria } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/select';
import { KIND_LABELS } from '@/features/analysis/labels';
import type { FieldErrors } from '@/features/movement-detector/parameters';
import { FIELD_LIMITS } from '@/lib/field-limits';
import { PROTOCOL_KINDS, type ProtocolKind } from '../api';
import { readSettings, type SettingsState, SHOWN_BY_FORM, settingsOf, settingsServerErrors } from '../settings';
import { ProtocolSettingsForm } from './protocol-settings-form';

export interface ProtocolDraft {
  name: string;
  kind: ProtocolKind;
  parameters: Record<string, unknown>;
}

/**
 * The name and settings of a protocol, for a new one (the kind chosen here) or a new version of one (its kind
 * fixed). `onSave` sends them; its promise's failure is shown by field — the name, or a setting under its control.
 */
export function ProtocolEditor({
  initialName,
  kind: fixedKind,
  initialParameters,
  submitLabel,
  pending,
  onSave,
  onCancel,
}: {
  initialName: string;
  /** Fixed for an existing protocol; a new one offers the choice. */
  kind?: ProtocolKind;
  initialParameters: Record<string, unknown>;
  submitLabel: string;
  pending: boolean;
  onSave: (draft: ProtocolDraft) => Promise<unknown>;
  onCancel: () => void;
}) {
  const [name, setName] = useState(initialName);
  const [state, setState] = useState<SettingsState>(() =>
    settingsOf(fixedKind ?? 'movement_detection', initialParameters),
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [otherErrors, setOtherErrors] = useState<string[]>([]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const settings = readSettings(state);
    const nameErrors = name.trim() === '' ? ['Give the protocol a name.'] : undefined;
    setErrors({ ...(settings.ok ? {} : settings.errors), ...(nameErrors ? { name: nameErrors } : {}) });
    setOtherErrors([]);
    if (!settings.ok || nameErrors) return;
    onSave({ name: name.trim(), kind: state.kind, parameters: settings.parameters }).catch((error: unknown) => {
      const byField = settingsServerErrors(state.kind, error);
      setErrors(byField);
      // Messages no control shows (e.g. a kept ROI the server refuses) are said under the form.
      setOtherErrors(
        Object.entries(byField)
          .filter(([key]) => key !== 'name' && key !== 'kind' && !SHOWN_BY_FORM[state.kind].has(key))
          .flatMap(([key, messages]) => (messages ?? []).map((message) => `${key}: ${message}`)),
      );
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-6" data-testid="protocol-editor">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Field id="protocol-name" label="Name" errors={errors.name}>
          <CappedInput
            {...fieldAria('protocol-name', errors.name)}
            max={FIELD_LIMITS.protocolName}
            noun="a protocol name"
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        </Field>
        <Field
          id="protocol-kind"
          label="Kind"
          description={fixedKind ? 'A protocol keeps its kind; make a new protocol for another.' : undefined}
          errors={errors.kind}
        >
          <NativeSelect
            {...fieldAria('protocol-kind', errors.kind)}
            value={state.kind}
            disabled={fixedKind !== undefined}
            onChange={(event) => {
              setState(settingsOf(event.target.value as ProtocolKind, {}));
              setErrors({});
            }}
          >
            {PROTOCOL_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {KIND_LABELS[kind]}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </div>
      <ProtocolSettingsForm state={state} onChange={setState} errors={errors} />
      {otherErrors.length ? (
        <div role="alert" className="text-destructive text-sm" data-testid="protocol-other-errors">
          {otherErrors.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Save aria-hidden="true" />}
          {submitLabel}
        </Button>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
