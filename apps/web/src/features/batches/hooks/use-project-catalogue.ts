import { useQuery } from '@tanstack/react-query';
import { type Subject, subjectsApi } from '@/features/subjects/api';
import { type Video, videosApi } from '@/features/videos/api';
import type { Page } from '@/lib/api-client';

/** The server's largest page: a project of 200 videos is one request. */
const PAGE = 500;

async function everyPage<T>(load: (page: number) => Promise<Page<T>>): Promise<T[]> {
  const rows: T[] = [];
  for (let page = 1; ; page++) {
    const answer = await load(page);
    rows.push(...answer.results);
    if (!answer.next || answer.results.length === 0) return rows;
  }
}

/** Every subject and video of the project, for choosing a batch's videos and showing them before Start. */
export function useProjectCatalogue(projectUuid: string) {
  return useQuery({
    queryKey: ['batches', 'catalogue', projectUuid],
    queryFn: async (): Promise<{ subjects: Subject[]; videos: Video[] }> => {
      const [subjects, videos] = await Promise.all([
        everyPage((page) => subjectsApi.list(projectUuid, { page, page_size: PAGE, ordering: 'name' })),
        everyPage((page) => videosApi.inProject(projectUuid, { page, page_size: PAGE, ordering: 'name' })),
      ]);
      return { subjects, videos };
    },
    // Videos become ready while the page is open: read again when it is opened anew.
    staleTime: 0,
  });
}
