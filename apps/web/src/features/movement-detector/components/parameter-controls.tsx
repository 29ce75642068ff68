import { RotateCcw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Field, fieldAria } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import {
  defaultParameterValues,
  type FieldErrors,
  PARAMETER_FIELDS,
  type ParameterField,
  type ParameterName,
  type ParameterValues,
} from '../parameters';

const GROUPS: { id: ParameterField['group']; title: string }[] = [
  { id: 'detection', title: 'Detection' },
  { id: 'events', title: 'Events' },
  { id: 'freezing', title: 'Freezing' },
];

/** The run's parameters, each with its range, default and one line of help; errors (the server's too) per field. */
export function ParameterControls({
  values,
  onChange,
  errors,
  disabled,
}: {
  values: ParameterValues;
  onChange: (values: ParameterValues) => void;
  errors: FieldErrors;
  disabled?: boolean;
}) {
  const set = (name: ParameterName, value: string) => onChange({ ...values, [name]: value });
  return (
    <fieldset className="grid grid-cols-1 gap-5" disabled={disabled}>
      <legend className="sr-only">Parameters</legend>
      {GROUPS.map((group) => (
        <div key={group.id} className="grid grid-cols-1 gap-3">
          <h3 className="font-medium text-muted-foreground text-xs uppercase tracking-wide">{group.title}</h3>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-1 2xl:grid-cols-2">
            {PARAMETER_FIELDS.filter((field) => field.group === group.id).map((field) => {
              const id = `md-param-${field.name}`;
              const fieldErrors = errors[field.name];
              return (
                <Field key={field.name} id={id} label={field.label} description={field.help} errors={fieldErrors}>
                  <Input
                    {...fieldAria(id, fieldErrors)}
                    type="number"
                    inputMode="decimal"
                    min={field.min}
                    max={field.max}
                    step={field.step}
                    placeholder={field.defaultValue === null ? 'off' : String(field.defaultValue)}
                    value={values[field.name]}
                    onChange={(event) => set(field.name, event.target.value)}
                    data-parameter={field.name}
                  />
                </Field>
              );
            })}
          </div>
        </div>
      ))}
      <div>
        <Button variant="ghost" size="sm" onClick={() => onChange(defaultParameterValues())}>
          <RotateCcw aria-hidden="true" />
          Reset to defaults
        </Button>
      </div>
    </fieldset>
  );
}
