import { Loader2, Send } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field, fieldAria } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/select';
import { type FieldErrors, fieldErrors, hasErrors, serverFieldErrors, validateEmail } from '@/lib/validation';
import { ASSIGNABLE_ROLES, type AssignableRole, ROLE_HINTS } from '../api';
import { useInvite } from '../hooks/use-team-mutations';

/** Invite by e-mail with a role; the server e-mails the link. */
export function InviteForm({ projectUuid }: { projectUuid: string }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<AssignableRole>('member');
  const [errors, setErrors] = useState<FieldErrors>({});
  const invite = useInvite(projectUuid);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const next = fieldErrors({ 'invite-email': validateEmail(email) });
    setErrors(next);
    if (hasErrors(next)) return;
    invite.mutate(
      { email: email.trim(), role },
      {
        onSuccess: () => setEmail(''),
        onError: (error) => {
          const server = serverFieldErrors(error);
          setErrors({ 'invite-email': server.email, 'invite-role': server.role });
        },
      },
    );
  };

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="grid grid-cols-1 gap-3 sm:grid-cols-[1fr_11rem_auto] sm:items-start"
    >
      <Field id="invite-email" label="Invite by e-mail" errors={errors['invite-email']}>
        <Input
          {...fieldAria('invite-email', errors['invite-email'])}
          type="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          placeholder="colleague@university.edu"
          autoComplete="off"
        />
      </Field>
      <Field id="invite-role" label="Role" errors={errors['invite-role']} description={ROLE_HINTS[role]}>
        <NativeSelect
          id="invite-role"
          value={role}
          onChange={(e) => setRole(e.target.value as AssignableRole)}
          className="w-full capitalize"
        >
          {ASSIGNABLE_ROLES.map((option) => (
            <option key={option} value={option}>
              {option[0]!.toUpperCase() + option.slice(1)}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Button type="submit" disabled={invite.isPending} className="sm:mt-[1.375rem]">
        {invite.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Send aria-hidden="true" />}
        Send invitation
      </Button>
    </form>
  );
}
