import { Checkbox } from '@/components/ui/checkbox';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/select';
import type { Subject } from '@/features/subjects/api';
import { countOf } from '@/lib/format';
import { groupsOf, type Scope, type ScopeKind } from '../scope';

const KINDS: { value: ScopeKind; label: string }[] = [
  { value: 'all', label: 'Every video of the project' },
  { value: 'subjects', label: 'The videos of chosen subjects' },
  { value: 'group', label: 'The videos of a subject group' },
  { value: 'videos', label: 'Videos I pick' },
];

/** Which videos a batch runs on: every ready video, chosen subjects', a group's, or a hand-picked list. */
export function ScopeChooser({
  scope,
  onChange,
  subjects,
  errors,
}: {
  scope: Scope;
  onChange: (scope: Scope) => void;
  subjects: readonly Subject[];
  errors: string[];
}) {
  const groups = groupsOf(subjects);
  const choose = (kind: ScopeKind): Scope =>
    kind === 'all'
      ? { kind }
      : kind === 'subjects'
        ? { kind, subjectUuids: [] }
        : kind === 'group'
          ? { kind, group: groups[0] ?? '' }
          : { kind, videoUuids: [] };
  return (
    <fieldset className="grid grid-cols-1 gap-4" data-testid="scope-chooser">
      <legend className="sr-only">Videos</legend>
      <div className="grid gap-1.5" role="radiogroup" aria-label="Which videos">
        {KINDS.map((kind) => (
          <label key={kind.value} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="batch-scope"
              value={kind.value}
              checked={scope.kind === kind.value}
              onChange={() => onChange(choose(kind.value))}
              className="size-4 accent-primary"
            />
            {kind.label}
          </label>
        ))}
      </div>
      {scope.kind === 'group' ? (
        <Field id="batch-group" label="Group" errors={errors.length ? errors : undefined}>
          <NativeSelect
            id="batch-group"
            value={scope.group}
            onChange={(event) => onChange({ kind: 'group', group: event.target.value })}
          >
            {groups.length === 0 ? <option value="">No subject has a group</option> : null}
            {groups.map((group) => (
              <option key={group} value={group}>
                {group}
              </option>
            ))}
          </NativeSelect>
        </Field>
      ) : null}
      {scope.kind === 'subjects' ? (
        <div className="grid gap-2" data-testid="scope-subjects">
          <p className="font-medium text-sm">Subjects</p>
          <ul className="grid max-h-56 gap-1.5 overflow-y-auto sm:grid-cols-2">
            {subjects.map((subject) => {
              const checked = scope.subjectUuids.includes(subject.subject_uuid);
              const id = `batch-subject-${subject.subject_uuid}`;
              return (
                <li key={subject.subject_uuid} className="flex items-center gap-2 text-sm">
                  <Checkbox
                    id={id}
                    checked={checked}
                    onCheckedChange={(on) =>
                      onChange({
                        kind: 'subjects',
                        subjectUuids:
                          on === true
                            ? [...scope.subjectUuids, subject.subject_uuid]
                            : scope.subjectUuids.filter((uuid) => uuid !== subject.subject_uuid),
                      })
                    }
                  />
                  <label htmlFor={id} className="min-w-0 truncate">
                    {subject.name}
                    <span className="text-muted-foreground">
                      {subject.group ? ` · ${subject.group}` : ''} · {countOf(subject.video_count, 'video')}
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
      {scope.kind === 'videos' ? (
        <p className="text-muted-foreground text-sm">Tick the videos in the table below.</p>
      ) : null}
      {errors.length && scope.kind !== 'group' ? (
        <p role="alert" className="text-destructive text-sm">
          {errors.join(' ')}
        </p>
      ) : null}
    </fieldset>
  );
}
