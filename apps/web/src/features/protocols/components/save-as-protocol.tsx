import { BookmarkPlus, Loader2 } from 'lucide-react';
import { type FormEvent, type MouseEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { CappedInput } from '@/components/ui/capped-input';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Field, fieldAria } from '@/components/ui/field';
import { KIND_LABELS } from '@/features/analysis/labels';
import { useProjectPermissions } from '@/features/projects/hooks/use-project-permissions';
import { FIELD_LIMITS } from '@/lib/field-limits';
import { type FieldErrors, serverFieldErrors } from '@/lib/validation';
import { type ProtocolKind, protocolPath } from '../api';
import { useCreateProtocol } from '../hooks/use-protocol-mutations';

/**
 * "Save as protocol": names the settings a tool shows (or a run used) and saves them as a protocol of the project.
 * `readParameters` gives them when the button is pressed, or null when the form has an error (the tool shows it).
 * The server's answer is shown by field: the name here, a parameter's message here and — through
 * `onParameterErrors` — under the tool's own control. Members and up see it.
 */
export function SaveAsProtocolButton({
  projectUuid,
  kind,
  readParameters,
  onParameterErrors,
  label = 'Save as protocol',
  variant = 'outline',
  disabled,
}: {
  projectUuid: string;
  kind: ProtocolKind;
  readParameters: () => Record<string, unknown> | null;
  onParameterErrors?: (error: unknown) => void;
  label?: string;
  variant?: 'outline' | 'ghost';
  disabled?: boolean;
}) {
  const permissions = useProjectPermissions();
  const [parameters, setParameters] = useState<Record<string, unknown> | null>(null);
  if (!permissions.canEditContent) return null;
  return (
    <>
      <Button
        type="button"
        variant={variant}
        size="sm"
        disabled={disabled}
        onClick={() => setParameters(readParameters())}
      >
        <BookmarkPlus aria-hidden="true" />
        {label}
      </Button>
      <Dialog open={parameters !== null} onOpenChange={(open) => !open && setParameters(null)}>
        <DialogContent>
          {parameters ? (
            <SaveProtocolForm
              projectUuid={projectUuid}
              kind={kind}
              parameters={parameters}
              onParameterErrors={onParameterErrors}
              onDone={() => setParameters(null)}
            />
          ) : null}
        </DialogContent>
      </Dialog>
    </>
  );
}

/** `parameters.threshold` → `threshold`; the rest (name, kind) as they are. */
function splitErrors(errors: FieldErrors): { name: string[]; other: string[] } {
  const name: string[] = [];
  const other: string[] = [];
  for (const [key, messages] of Object.entries(errors)) {
    if (key === 'name') name.push(...(messages ?? []));
    else other.push(...(messages ?? []).map((message) => `${key.replace(/^parameters\./, '')}: ${message}`));
  }
  return { name, other };
}

function SaveProtocolForm({
  projectUuid,
  kind,
  parameters,
  onParameterErrors,
  onDone,
}: {
  projectUuid: string;
  kind: ProtocolKind;
  parameters: Record<string, unknown>;
  onParameterErrors: ((error: unknown) => void) | undefined;
  onDone: () => void;
}) {
  const navigate = useNavigate();
  const create = useCreateProtocol(projectUuid);
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<{ name: string[]; other: string[] }>({ name: [], other: [] });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') {
      setErrors({ name: ['Give the protocol a name.'], other: [] });
      return;
    }
    create.mutate(
      { name: name.trim(), kind, parameters },
      {
        onSuccess: (protocol) => {
          const href = protocolPath(projectUuid, protocol.protocol_uuid);
          // The toaster sits outside the router: the link navigates through the page's own navigate.
          const open = (click: MouseEvent) => {
            click.preventDefault();
            void navigate(href);
          };
          toast.success(
            <span>
              Saved as protocol{' '}
              <a href={href} onClick={open} className="font-medium underline" data-testid="protocol-link">
                {protocol.name}
              </a>
            </span>,
          );
          onDone();
        },
        onError: (error) => {
          const split = splitErrors(serverFieldErrors(error));
          setErrors(split);
          if (split.other.length > 0) onParameterErrors?.(error);
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-5">
      <DialogHeader>
        <DialogTitle>Save as protocol</DialogTitle>
        <DialogDescription>
          Saves these {KIND_LABELS[kind].toLowerCase()} settings under a name, so they can be run on many videos and
          every run records the version it used.
        </DialogDescription>
      </DialogHeader>
      <Field id="protocol-name" label="Protocol name" errors={errors.name.length ? errors.name : undefined}>
        <CappedInput
          {...fieldAria('protocol-name', errors.name.length ? errors.name : undefined)}
          max={FIELD_LIMITS.protocolName}
          noun="a protocol name"
          value={name}
          placeholder="e.g. Freezing, home cage v2"
          autoFocus
          onChange={(event) => setName(event.target.value)}
        />
      </Field>
      {errors.other.length ? (
        <div role="alert" className="text-destructive text-sm" data-testid="protocol-parameter-errors">
          <p className="font-medium">The settings were refused:</p>
          <ul className="list-disc pl-5">
            {errors.other.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          Save protocol
        </Button>
      </DialogFooter>
    </form>
  );
}
