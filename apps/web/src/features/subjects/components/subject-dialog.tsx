import { Loader2, Plus, X } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/ui/button';
import { CappedInput, CappedTextarea } from '@/components/ui/capped-input';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Field, fieldAria } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { FIELD_LIMITS } from '@/lib/field-limits';
import { type FieldErrors, fieldErrors, hasErrors, serverFieldErrors } from '@/lib/validation';
import type { Subject, SubjectBody } from '../api';
import { useCreateSubject, useUpdateSubject } from '../hooks/use-subject-mutations';

export const SUBJECT_NAME_MAX = FIELD_LIMITS.subjectName;

type Row = { id: number; key: string; value: string };

/** Validates a subject form; metadata keys must be unique and non-empty when a value is given. */
export function validateSubject(name: string, rows: Pick<Row, 'key' | 'value'>[]): FieldErrors {
  const trimmed = name.trim();
  const keys = rows.map((r) => r.key.trim()).filter(Boolean);
  const duplicate = keys.find((key, index) => keys.indexOf(key) !== index);
  const missingKey = rows.some((r) => !r.key.trim() && r.value.trim());
  return fieldErrors({
    name: !trimmed
      ? 'Give the subject a name.'
      : trimmed.length > SUBJECT_NAME_MAX
        ? `Use at most ${SUBJECT_NAME_MAX} characters.`
        : null,
    metadata: duplicate
      ? `The field “${duplicate}” appears twice.`
      : missingKey
        ? 'Every value needs a field name.'
        : null,
  });
}

export function SubjectDialog({
  projectUuid,
  subject,
  open,
  onOpenChange,
}: {
  projectUuid: string;
  subject?: Subject | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-xl">
        {open ? (
          <SubjectForm projectUuid={projectUuid} subject={subject ?? null} onDone={() => onOpenChange(false)} />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

let nextRowId = 1;
const toRows = (metadata: Record<string, unknown> | undefined): Row[] =>
  Object.entries(metadata ?? {}).map(([key, value]) => ({ id: nextRowId++, key, value: String(value ?? '') }));

function SubjectForm({
  projectUuid,
  subject,
  onDone,
}: {
  projectUuid: string;
  subject: Subject | null;
  onDone: () => void;
}) {
  const [name, setName] = useState(subject?.name ?? '');
  const [group, setGroup] = useState(subject?.group ?? '');
  const [notes, setNotes] = useState(subject?.notes ?? '');
  const [rows, setRows] = useState<Row[]>(() => toRows(subject?.metadata));
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = useCreateSubject(projectUuid);
  const update = useUpdateSubject(projectUuid, subject?.subject_uuid ?? '');
  const pending = create.isPending || update.isPending;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const next = validateSubject(name, rows);
    setErrors(next);
    if (hasErrors(next)) return;
    const metadata: Record<string, string> = {};
    for (const row of rows) if (row.key.trim()) metadata[row.key.trim()] = row.value.trim();
    const body: SubjectBody = { name: name.trim(), group: group.trim(), notes: notes.trim(), metadata };
    const options = { onSuccess: onDone, onError: (error: unknown) => setErrors(serverFieldErrors(error)) };
    if (subject) update.mutate(body, options);
    else create.mutate(body, options);
  };

  const setRow = (id: number, patch: Partial<Row>) =>
    setRows((rs) => rs.map((r) => (r.id === id ? { ...r, ...patch } : r)));

  return (
    <form onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-5">
      <DialogHeader>
        <DialogTitle>{subject ? 'Edit subject' : 'New subject'}</DialogTitle>
        <DialogDescription>
          A subject is one animal or participant; its videos are uploaded on its page.
        </DialogDescription>
      </DialogHeader>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Field id="subject-name" label="Name" errors={errors.name}>
          <CappedInput
            {...fieldAria('subject-name', errors.name)}
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="e.g. M12"
            autoFocus
            max={SUBJECT_NAME_MAX}
            noun="a subject name"
          />
        </Field>
        <Field id="subject-group" label="Group" errors={errors.group}>
          <CappedInput
            {...fieldAria('subject-group', errors.group)}
            value={group}
            onChange={(e) => setGroup(e.target.value)}
            placeholder="e.g. control"
            max={FIELD_LIMITS.subjectGroup}
            noun="a group"
          />
        </Field>
      </div>
      <Field id="subject-notes" label="Notes" errors={errors.notes}>
        <CappedTextarea
          {...fieldAria('subject-notes', errors.notes)}
          value={notes}
          onChange={(e) => setNotes(e.target.value)}
          rows={3}
          max={FIELD_LIMITS.subjectNotes}
          noun="notes"
        />
      </Field>
      <fieldset className="grid grid-cols-1 gap-2">
        <legend className="mb-2 font-medium text-sm">Metadata</legend>
        {rows.length === 0 ? (
          <p className="text-muted-foreground text-xs">Sex, strain, genotype, date of birth…</p>
        ) : null}
        {rows.map((row, index) => (
          <div key={row.id} className="flex items-center gap-2">
            <Label htmlFor={`meta-key-${row.id}`} className="sr-only">
              Field {index + 1} name
            </Label>
            <Input
              id={`meta-key-${row.id}`}
              value={row.key}
              placeholder="Field"
              onChange={(e) => setRow(row.id, { key: e.target.value })}
            />
            <Label htmlFor={`meta-value-${row.id}`} className="sr-only">
              Field {index + 1} value
            </Label>
            <Input
              id={`meta-value-${row.id}`}
              value={row.value}
              placeholder="Value"
              onChange={(e) => setRow(row.id, { value: e.target.value })}
            />
            <Button
              variant="ghost"
              size="icon"
              aria-label={`Remove field ${index + 1}`}
              onClick={() => setRows((rs) => rs.filter((r) => r.id !== row.id))}
            >
              <X aria-hidden="true" />
            </Button>
          </div>
        ))}
        {errors.metadata ? (
          <p className="text-destructive text-xs" role="alert">
            {errors.metadata.join(' ')}
          </p>
        ) : null}
        <Button
          variant="outline"
          size="sm"
          className="w-fit"
          onClick={() => setRows((rs) => [...rs, { id: nextRowId++, key: '', value: '' }])}
        >
          <Plus aria-hidden="true" />
          Add field
        </Button>
      </fieldset>
      <DialogFooter>
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          {subject ? 'Save subject' : 'Create subject'}
        </Button>
      </DialogFooter>
    </form>
  );
}
