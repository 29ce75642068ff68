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
  const timer = useRef<number | null>(null);
  useEffect(
    () => () => {
      if (timer.current) window.clearTimeout(timer.current);
    },
    [],
  );

  const onConfirm = () =>
    remove.mutate(project.project_uuid, {
      onSuccess: () => {
        setOpen(false);
        forgetProject(project.project_uuid);
        toast.success(`Project “${project.name}” deleted`);
        timer.current = window.setTimeout(() => navigate('/', { replace: true }), DELETE_REDIRECT_MS);
      },
    });

  return (
    <Card className="border-destructive/40">
      <CardHeader>
        <CardTitle className="text-destructive">Delete project</CardTitle>
        <CardDescription>
          Deletes the project with all its subjects, videos and analyses for every member. This cannot be undone.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <AlertDialog open={open} onOpenChange={setOpen}>
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
                All subjects, videos and analyses of this project are deleted for every member. This cannot be undone.
              </AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel>Cancel</AlertDialogCancel>
              <Button variant="destructive" onClick={onConfirm} disabled={remove.isPending}>
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
