import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { projectKeys } from '@/features/projects/api';
import { trashKeys } from '@/features/trash/api';
import { type SubjectBody, subjectKeys, subjectsApi } from '../api';

function useInvalidateSubjects(projectUuid: string) {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: subjectKeys.all });
    // Counts on the project (dashboard, details) change with subjects.
    void queryClient.invalidateQueries({ queryKey: projectKeys.detail(projectUuid) });
  };
}

export function useCreateSubject(projectUuid: string) {
  const invalidate = useInvalidateSubjects(projectUuid);
  return useMutation({
    mutationFn: (body: SubjectBody) => subjectsApi.create(projectUuid, body),
    onSuccess: (subject) => {
      invalidate();
      toast.success(`Subject “${subject.name}” added`);
    },
  });
}

export function useUpdateSubject(projectUuid: string, subjectUuid: string) {
  const invalidate = useInvalidateSubjects(projectUuid);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Partial<SubjectBody>) => subjectsApi.update(projectUuid, subjectUuid, body),
    onSuccess: (subject) => {
      queryClient.setQueryData(subjectKeys.detail(projectUuid, subjectUuid), subject);
      invalidate();
      toast.success('Subject saved');
    },
  });
}

export function useDeleteSubjects(projectUuid: string) {
  const invalidate = useInvalidateSubjects(projectUuid);
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (subjectUuids: string[]) =>
      subjectUuids.length === 1
        ? subjectsApi.destroy(projectUuid, subjectUuids[0]!)
        : subjectsApi.bulkDelete(projectUuid, subjectUuids),
    onSuccess: (_data, subjectUuids) => {
      invalidate();
      // Deleted subjects wait in the project's trash.
      void queryClient.invalidateQueries({ queryKey: trashKeys.lists(), refetchType: 'all' });
      toast.success(subjectUuids.length === 1 ? 'Subject deleted' : `${subjectUuids.length} subjects deleted`);
    },
  });
}
