import { Loader2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { CappedInput, CappedTextarea } from '@/components/ui/capped-input';
import { Card, CardContent, CardFooter } from '@/components/ui/card';
import { Field, fieldAria } from '@/components/ui/field';
import { useAppConfig } from '@/features/config/api';
import { FIELD_LIMITS } from '@/lib/field-limits';
import { cn } from '@/lib/utils';
import { type FieldErrors, fieldErrors, hasErrors, serverFieldErrors } from '@/lib/validation';
import type { Project } from '../api';
import { useActiveProject } from '../hooks/active-project-context';
import { useCreateProject } from '../hooks/use-project-mutations';

export const PROJECT_NAME_MAX = FIELD_LIMITS.projectName;

const PLANS: { value: Project['plan']; title: string; text: string }[] = [
  {
    value: 'pro',
    title: 'Pro',
    text: 'Paid by card through Stripe. Set up subjects and your team now; uploads and analyses start once you subscribe.',
  },
  {
    value: 'institutional',
    title: 'Institutional',
    text: 'Under an agreement with your institution. Uploads and analyses start once an operator activates it.',
  },
];

/** With billing on, a new project chooses its plan. */
function PlanChoice({ value, onChange }: { value: Project['plan']; onChange: (plan: Project['plan']) => void }) {
  return (
    <fieldset className="grid grid-cols-1 gap-2">
      <legend className="mb-2 font-medium text-sm">Plan</legend>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        {PLANS.map((plan) => (
          <label
            key={plan.value}
            className={cn(
              'flex cursor-pointer gap-3 rounded-lg border p-3 text-sm transition-colors hover:bg-accent/50 has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50',
              value === plan.value && 'border-primary bg-primary/[0.04]',
            )}
          >
            <input
              type="radio"
              name="plan"
              value={plan.value}
              checked={value === plan.value}
              onChange={() => onChange(plan.value)}
              className="mt-0.5 accent-primary"
            />
            <span className="grid gap-1">
              <span className="font-medium">{plan.title}</span>
              <span className="text-muted-foreground text-xs leading-relaxed">{plan.text}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function NewProjectForm() {
  const navigate = useNavigate();
  const { setActiveProjectUuid } = useActiveProject();
  const [values, setValues] = useState({ name: '', institution: '', principal_investigator: '', description: '' });
  const [plan, setPlan] = useState<Project['plan']>('pro');
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = useCreateProject();
  const { billing_enabled: billingEnabled } = useAppConfig();
  const set = (key: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const name = values.name.trim();
    const next = fieldErrors({
      name: !name
        ? 'Give the project a name.'
        : name.length > PROJECT_NAME_MAX
          ? `Use at most ${PROJECT_NAME_MAX} characters.`
          : null,
    });
    setErrors(next);
    if (hasErrors(next)) return;
    create.mutate(
      {
        name,
        ...(billingEnabled ? { plan } : {}),
        metadata: {
          description: values.description.trim(),
          institution: values.institution.trim(),
          principal_investigator: values.principal_investigator.trim(),
        },
      },
      {
        onSuccess: (project) => {
          setActiveProjectUuid(project.project_uuid);
          toast.success(`Project “${project.name}” created`);
          navigate(`/projects/${project.project_uuid}`);
        },
        onError: (error) => {
          const server = serverFieldErrors(error);
          const metadata = server.metadata;
          setErrors(metadata ? { ...server, description: metadata } : server);
        },
      },
    );
  };

  return (
    <Card>
      <form onSubmit={onSubmit} noValidate>
        <CardContent className="grid grid-cols-1 gap-5">
          <Field id="name" label="Project name" errors={errors.name}>
            <CappedInput
              {...fieldAria('name', errors.name)}
              value={values.name}
              onChange={set('name')}
              placeholder="e.g. Neonatal twitch study 2026"
              autoFocus
              max={PROJECT_NAME_MAX}
              noun="a project name"
            />
          </Field>
          <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
            <Field id="institution" label="Institution" errors={errors.institution}>
              <CappedInput
                {...fieldAria('institution', errors.institution)}
                value={values.institution}
                onChange={set('institution')}
                placeholder="University or institute"
                max={FIELD_LIMITS.projectInstitution}
                noun="an institution"
              />
            </Field>
            <Field id="principal_investigator" label="Principal investigator" errors={errors.principal_investigator}>
              <CappedInput
                {...fieldAria('principal_investigator', errors.principal_investigator)}
                value={values.principal_investigator}
                onChange={set('principal_investigator')}
                placeholder="Dr. …"
                max={FIELD_LIMITS.projectInvestigator}
                noun="a principal investigator"
              />
            </Field>
          </div>
          {billingEnabled ? <PlanChoice value={plan} onChange={setPlan} /> : null}
          <Field
            id="description"
            label="Description"
            errors={errors.description}
            description="What the project studies; visible to every member."
          >
            <CappedTextarea
              {...fieldAria('description', errors.description)}
              value={values.description}
              onChange={set('description')}
              rows={4}
              max={FIELD_LIMITS.projectDescription}
              noun="a description"
            />
          </Field>
        </CardContent>
        <CardFooter className="mt-6 justify-end gap-2 border-t pt-6">
          <Button variant="outline" onClick={() => navigate(-1)}>
            Cancel
          </Button>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
            Create project
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
