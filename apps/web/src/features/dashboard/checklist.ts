import type { ApiResponse } from '@app/api';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client-typed';
import { readStorage, writeStorage } from '@/lib/storage';

/** The project's getting-started facts, from `GET /projects/{p}/checklist/`. */
export type ProjectChecklist = ApiResponse<'/api/projects/{project_uuid}/checklist/', 'get'>;

export const checklistKeys = {
  all: ['checklist'] as const,
  project: (projectUuid: string) => [...checklistKeys.all, projectUuid] as const,
};

export const checklistQueries = {
  project: (projectUuid: string) =>
    queryOptions({
      queryKey: checklistKeys.project(projectUuid),
      queryFn: (): Promise<ProjectChecklist> =>
        api.GET('/api/projects/{project_uuid}/checklist/', { params: { path: { project_uuid: projectUuid } } }),
      // Every tool changes these facts; the dashboard asks again each time it opens rather than tracking them all.
      refetchOnMount: 'always',
    }),
};

export interface ChecklistStep {
  key: 'subjects' | 'upload' | 'detect' | 'review' | 'export';
  title: string;
  done: boolean;
  /** What is there, or what to do. */
  text: string;
  /** The screen where the step is taken, under /projects/{p}. */
  path: string;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The five steps from raw recordings to exported numbers, each ticked from the project's data. */
export function checklistSteps(facts: ProjectChecklist): ChecklistStep[] {
  return [
    {
      key: 'subjects',
      title: 'Add subjects',
      done: facts.subjects > 0,
      text: facts.subjects > 0 ? plural(facts.subjects, 'subject', 'subjects') : 'One per animal, e.g. “M12”.',
      path: 'subjects',
    },
    {
      key: 'upload',
      title: 'Upload videos',
      done: facts.videos_ready > 0,
      text:
        facts.videos_ready > 0
          ? `${plural(facts.videos_ready, 'video', 'videos')} ready`
          : 'Drop recordings on a subject’s page.',
      path: 'subjects',
    },
    {
      key: 'detect',
      title: 'Detect movement',
      done: facts.runs_succeeded > 0,
      text:
        facts.runs_succeeded > 0
          ? `${plural(facts.runs_succeeded, 'finished run', 'finished runs')}`
          : 'Draw a region, preview, run.',
      path: 'movement-detector',
    },
    {
      key: 'review',
      title: 'Review events',
      done: facts.events_reviewed,
      text: facts.events_reviewed ? 'Events reviewed in Quick Score' : 'Confirm events clip by clip in Quick Score.',
      path: 'quick-score',
    },
    {
      key: 'export',
      title: 'Export results',
      done: facts.exported,
      text: facts.exported ? 'Exported' : 'Download the project summary from Analysis Logs.',
      path: 'analysis-logs',
    },
  ];
}

/** Dismissing the finished checklist is remembered per user and project in this browser. */
const dismissedKey = (userId: number, projectUuid: string) => `checklist-dismissed:${userId}:${projectUuid}`;
export const isChecklistDismissed = (userId: number, projectUuid: string) =>
  readStorage(dismissedKey(userId, projectUuid)) === '1';
export const dismissChecklist = (userId: number, projectUuid: string) =>
  writeStorage(dismissedKey(userId, projectUuid), '1');
