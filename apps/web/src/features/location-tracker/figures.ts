/**
 * A location-tracking run's figures (the server draws them, ADR 025): the track and the occupancy heat map, each
 * as SVG (shown here, and downloaded) or PNG (downloaded).
 */
import { queryOptions } from '@tanstack/react-query';
import { analysisKeys, runPath, type VideoRef } from '@/features/analysis/api';
import { apiDownload } from '@/lib/api-client-typed';
import { saveResponse } from '@/lib/download';

export type FigureName = 'track' | 'heatmap';
export type { FigureFormat } from '@/components/figure/server-figure';

import type { FigureFormat } from '@/components/figure/server-figure';

const FIGURE_PATH =
  '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/analysis/{analysis_uuid}/figure/';

function fetchFigure(ref: VideoRef, analysisUuid: string, name: FigureName, format: FigureFormat) {
  return apiDownload('get', FIGURE_PATH, { params: { path: runPath(ref, analysisUuid), query: { name, format } } });
}

export const figureApi = {
  /** The figure as a file, saved under the server's name (subject, video, run, figure). */
  download: async (ref: VideoRef, analysisUuid: string, name: FigureName, format: FigureFormat) => {
    saveResponse(await fetchFigure(ref, analysisUuid, name, format), `${name}-${analysisUuid}.${format}`);
  },
};

export const figureQueries = {
  /** The SVG to show; a finished run's figure never changes. */
  svg: (ref: VideoRef, analysisUuid: string, name: FigureName) =>
    queryOptions({
      queryKey: [...analysisKeys.all, 'figure', analysisUuid, name] as const,
      queryFn: async () => (await fetchFigure(ref, analysisUuid, name, 'svg')).blob(),
      staleTime: Number.POSITIVE_INFINITY,
    }),
};
