import { Loader2, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useTrashDays } from '@/features/trash/hooks/use-trash-days';
import type { Project } from '../api';
import { useActiveProject } from '../hooks/active-project-context';
import { useDeleteProject } from '../hooks/use-project-mutations';

/** Spec §9: the redirect to / after deleting a project waits 1000 ms. */
export const DELETE_REDIRECT_MS = 1000;

export function DeleteProjectCard({ project }: { project: Project }) {
  const navigate = useNavigate();
  const { forgetProject } = useActiveProject();
  const remove = useDeleteProject();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const days = useTrashDays();
  // The name typed exactly as it is: one click can no longer take a whole project away.
  const nameMatches = typed === project.name;
  const timer = useRef<number | null>(null);
  useEffect(
    () => () => {
      if (timer.current) window.clearTimeout(timer.current);
    },
    [],
  );

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) setTyped('');
  };

  const onConfirm = () =>
    nameMatches &&
    remove.mutate(
      { projectUuid: project.project_uuid, confirmName: typed },
      {
        onSuccess: () => {
          setOpen(false);
          forgetProject(project.project_uuid);
          toast.success(`Project “${project.name}” deleted`);
          timer.current = window.setTimeout(() => navigate('/', { replace: true }), DELETE_REDIRECT_MS);
        },
      },
    );

  return (
    <Card className="border-destructive/40">
      <CardHeader>
        <CardTitle className="text-destructive">Delete project</CardTitle>
        <CardDescription>
          Moves the project with all its subjects, videos and analyses to the trash for every member. You can restore it
          from “Deleted projects” on the home page for {days} days; then it is purged for good.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <AlertDialog open={open} onOpenChange={onOpenChange}>
          <AlertDialogTrigger asChild>
            <Button variant="destructive" disabled={remove.isSuccess}>
              <Trash2 aria-hidden="true" />
              Delete project
            </Button>
          </AlertDialogTrigger>
          <AlertDialogContent>
            <AlertDialogHeader>
              <AlertDialogTitle>Delete “{project.name}”?</AlertDialogTitle>
              <AlertDialogDescription>
                The project and all its subjects, videos and analyses leave for every member. It is moved to the trash
                for {days} days; restore it from Deleted projects on the home page.
              </AlertDialogDescription>
            </AlertDialogHeader>
            <form
              className="grid grid-cols-1 gap-2"
              onSubmit={(event) => {
                event.preventDefault();
                onConfirm();
              }}
            >
              <Label htmlFor="delete-project-name">
                Type <span className="font-semibold">{project.name}</span> to confirm
              </Label>
              <Input
                id="delete-project-name"
                value={typed}
                onChange={(event) => setTyped(event.target.value)}
                autoComplete="off"
                spellCheck={false}
                autoFocus
              />
            </form>
            <AlertDialogFooter>
              <AlertDialogCancel>Cancel</AlertDialogCancel>
              <Button variant="destructive" onClick={onConfirm} disabled={!nameMatches || remove.isPending}>
                {remove.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
                Delete project
              </Button>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      </CardContent>
    </Card>
  );
}
