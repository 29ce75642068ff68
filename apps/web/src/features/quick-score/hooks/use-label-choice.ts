import { useQueryClient } from '@tanstack/react-query';
import { quickScoreApi, quickScoreKeys } from '../api';
import type { LabelChoice } from '../components/label-menu';
import type { ReviewAction, ReviewEvent } from '../review-events';

/** The label menu's choice: a label given to the current event (Shift+Enter also saves a new one in the project). */
export function useLabelChoice({
  projectUuid,
  current,
  canEdit,
  perform,
  close,
}: {
  projectUuid: string;
  current: ReviewEvent | undefined;
  canEdit: boolean;
  perform: (action: ReviewAction) => void;
  close: () => void;
}) {
  const queryClient = useQueryClient();
  return (choice: LabelChoice) => {
    close();
    if (!current || !canEdit) return;
    if (choice.kind === 'create') {
      queryClient.setQueryData<string[]>(quickScoreKeys.labels(projectUuid), (names = []) =>
        names.some((name) => name.toLowerCase() === choice.label.toLowerCase()) ? names : [...names, choice.label],
      );
      // The label is kept with the event's change anyway; saving it on its own shows it in other tabs at once.
      void quickScoreApi.createLabel(projectUuid, choice.label).catch(() => {});
    }
    const label = choice.label;
    if ((current.label ?? null) === label) return;
    perform({ kind: 'label', id: current.id, at: current.time, label, before: current.label ?? null });
  };
}
