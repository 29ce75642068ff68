import { useMutation } from '@tanstack/react-query';
import { BadgeCheck, Camera, Loader2 } from 'lucide-react';
import { type ChangeEvent, type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { toast } from 'sonner';
import { PageContainer, PageHeader } from '@/components/layout/page-header';
import { Avatar, AvatarFallback, AvatarImage } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Field, fieldAria } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { displayName } from '@/features/auth/api';
import { useSession } from '@/features/auth/hooks/use-session';
import { sessionStore } from '@/features/auth/session';
import { formatDate } from '@/lib/format';
import { tokens } from '@/lib/tokens';
import { initials } from '@/lib/utils';
import {
  type FieldErrors,
  fieldErrors,
  hasErrors,
  MIN_PASSWORD,
  serverFieldErrors,
  validateNewPassword,
} from '@/lib/validation';
import { profileApi } from '../api';

export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;

export function ProfilePage() {
  const { user } = useSession();
  if (!user) return null;
  return (
    <PageContainer className="max-w-3xl">
      <PageHeader title="Account" description="Your profile, avatar and password." />
      <div className="grid grid-cols-1 gap-6">
        <AvatarCard />
        <NamesCard />
        <PasswordCard />
      </div>
    </PageContainer>
  );
}

function AvatarCard() {
  const { user } = useSession();
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const upload = useMutation({
    mutationFn: (file: File) => profileApi.uploadAvatar(file),
    onSuccess: (updated) => {
      sessionStore.setUser(updated);
      toast.success('Avatar updated');
    },
    onSettled: () => setPreview(null),
  });
  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );
  if (!user) return null;

  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!file.type.startsWith('image/')) return void toast.error('Choose an image file.');
    if (file.size > AVATAR_MAX_BYTES) return void toast.error('The avatar must be 5 MB or smaller.');
    setPreview(URL.createObjectURL(file));
    upload.mutate(file);
  };
  const name = displayName(user);

  return (
    <Card>
      <CardContent className="flex flex-col items-start gap-4 sm:flex-row sm:items-center">
        <div className="relative">
          <Avatar className="size-20">
            {preview || user.avatar_url ? <AvatarImage src={preview ?? user.avatar_url ?? undefined} alt="" /> : null}
            <AvatarFallback className="text-xl">{initials(name)}</AvatarFallback>
          </Avatar>
          {upload.isPending ? (
            <div className="absolute inset-0 flex items-center justify-center rounded-full bg-background/60">
              <Loader2 className="size-5 animate-spin" aria-hidden="true" />
            </div>
          ) : null}
        </div>
        <div className="min-w-0 flex-1 space-y-1">
          <p className="truncate font-semibold text-lg">{name}</p>
          <p className="flex flex-wrap items-center gap-2 text-muted-foreground text-sm">
            <span className="truncate">{user.email}</span>
            {user.email_verified ? (
              <Badge variant="success">
                <BadgeCheck aria-hidden="true" />
                Verified
              </Badge>
            ) : null}
          </p>
          {user.date_joined ? (
            <p className="text-muted-foreground text-xs">Member since {formatDate(user.date_joined)}</p>
          ) : null}
        </div>
        <label htmlFor={inputId} className="sr-only">
          Avatar image
        </label>
        <input
          id={inputId}
          ref={inputRef}
          type="file"
          accept="image/*"
          className="sr-only"
          tabIndex={-1}
          onChange={onPick}
        />
        <Button variant="outline" onClick={() => inputRef.current?.click()} disabled={upload.isPending}>
          <Camera aria-hidden="true" />
          Change avatar
        </Button>
      </CardContent>
    </Card>
  );
}

function NamesCard() {
  const { user } = useSession();
  const [first, setFirst] = useState(user?.first_name ?? '');
  const [last, setLast] = useState(user?.last_name ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: () => profileApi.updateNames(user!.id, { first_name: first.trim(), last_name: last.trim() }),
    onSuccess: (updated) => {
      sessionStore.setUser(updated);
      toast.success('Profile saved');
    },
    onError: (error) => setErrors(serverFieldErrors(error)),
  });
  if (!user) return null;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const next = fieldErrors({
      first_name: first.length > 150 ? 'Use at most 150 characters.' : null,
      last_name: last.length > 150 ? 'Use at most 150 characters.' : null,
    });
    setErrors(next);
    if (!hasErrors(next)) save.mutate();
  };
  return (
    <Card>
      <form onSubmit={onSubmit} noValidate>
        <CardHeader>
          <CardTitle>Profile</CardTitle>
          <CardDescription>Your name is shown to the members of your projects.</CardDescription>
        </CardHeader>
        <CardContent className="mt-6 grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Field id="first_name" label="First name" errors={errors.first_name}>
            <Input
              {...fieldAria('first_name', errors.first_name)}
              autoComplete="given-name"
              value={first}
              onChange={(e) => setFirst(e.target.value)}
            />
          </Field>
          <Field id="last_name" label="Last name" errors={errors.last_name}>
            <Input
              {...fieldAria('last_name', errors.last_name)}
              autoComplete="family-name"
              value={last}
              onChange={(e) => setLast(e.target.value)}
            />
          </Field>
          <Field
            id="profile-email"
            label="E-mail"
            description="Your sign-in name; contact support to change it."
            className="sm:col-span-2"
          >
            <Input id="profile-email" value={user.email} readOnly disabled />
          </Field>
        </CardContent>
        <CardFooter className="mt-6 justify-end border-t pt-6">
          <Button type="submit" disabled={save.isPending}>
            Save profile
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}

function PasswordCard() {
  const [values, setValues] = useState({ old_password: '', new_password1: '', new_password2: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const change = useMutation({
    mutationFn: () => profileApi.changePassword(values),
    onSuccess: (result) => {
      // The server rotates the session on a password change.
      if (result?.access) tokens.set(result.access, result.refresh ?? null);
      setValues({ old_password: '', new_password1: '', new_password2: '' });
      toast.success('Password changed');
    },
    onError: (error) => setErrors(serverFieldErrors(error)),
  });
  const set = (key: keyof typeof values) => (e: ChangeEvent<HTMLInputElement>) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const pw = validateNewPassword(values.new_password1, values.new_password2);
    const next = fieldErrors({
      old_password: values.old_password ? null : 'Enter your current password.',
      new_password1: pw.password,
      new_password2: pw.confirm,
    });
    setErrors(next);
    if (!hasErrors(next)) change.mutate();
  };
  return (
    <Card>
      <form onSubmit={onSubmit} noValidate>
        <CardHeader>
          <CardTitle>Password</CardTitle>
          <CardDescription>Other devices stay signed in until their session ends.</CardDescription>
        </CardHeader>
        <CardContent className="mt-6 grid grid-cols-1 gap-4">
          <Field id="old_password" label="Current password" errors={errors.old_password}>
            <Input
              {...fieldAria('old_password', errors.old_password)}
              type="password"
              autoComplete="current-password"
              value={values.old_password}
              onChange={set('old_password')}
            />
          </Field>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <Field
              id="new_password1"
              label="New password"
              description={`At least ${MIN_PASSWORD} characters.`}
              errors={errors.new_password1}
            >
              <Input
                {...fieldAria('new_password1', errors.new_password1)}
                type="password"
                autoComplete="new-password"
                value={values.new_password1}
                onChange={set('new_password1')}
              />
            </Field>
            <Field id="new_password2" label="Confirm new password" errors={errors.new_password2}>
              <Input
                {...fieldAria('new_password2', errors.new_password2)}
                type="password"
                autoComplete="new-password"
                value={values.new_password2}
                onChange={set('new_password2')}
              />
            </Field>
          </div>
        </CardContent>
        <CardFooter className="mt-6 justify-end border-t pt-6">
          <Button type="submit" disabled={change.isPending}>
            Change password
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
