import type { ApiResponse } from '@app/api';
import { queryOptions } from '@tanstack/react-query';
import {
  type EventsAnswer,
  runPath,
  type UpdateEventsAnswer,
  type UpdateEventsBody,
  type VideoRef,
} from '@/features/analysis/api';
import { api } from '@/lib/api-client-typed';

type ScorersPath =
  '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/analysis/{analysis_uuid}/scorers/';
export type Scorers = ApiResponse<ScorersPath, 'get'>;

/** Which events Quick Score reviews: the caller's own blind scoring, or the run's events (the consensus). */
export type ScoringMode = 'mine' | 'consensus';

const SCORERS =
  '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/analysis/{analysis_uuid}/scorers/';
const MY_SCORING =
  '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/analysis/{analysis_uuid}/my-scoring/';
const at = (ref: VideoRef, analysisUuid: string) => ({ params: { path: runPath(ref, analysisUuid) } });

export const scorerKeys = {
  all: ['scorers'] as const,
  list: (analysisUuid: string) => [...scorerKeys.all, analysisUuid] as const,
};

/** Blind second scoring (ADR 014). */
export const scorerApi = {
  list: (ref: VideoRef, analysisUuid: string): Promise<Scorers> => api.GET(SCORERS, at(ref, analysisUuid)),
  start: (ref: VideoRef, analysisUuid: string): Promise<Scorers> => api.POST(SCORERS, at(ref, analysisUuid)),
  mine: (ref: VideoRef, analysisUuid: string): Promise<EventsAnswer> => api.GET(MY_SCORING, at(ref, analysisUuid)),
  update: (ref: VideoRef, analysisUuid: string, body: UpdateEventsBody): Promise<UpdateEventsAnswer> =>
    api.POST(
      '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/analysis/{analysis_uuid}/my-scoring/update-events/',
      { ...at(ref, analysisUuid), body },
    ),
  /** Settles a difference in the consensus: the event takes that scorer's scoring of it, or (null) stays. */
  resolve: (ref: VideoRef, analysisUuid: string, eventId: number, scorerId: number | null): Promise<EventsAnswer> =>
    api.POST(
      '/api/projects/{project_uuid}/subjects/{subject_uuid}/videos/{video_uuid}/analysis/{analysis_uuid}/consensus/resolve/',
      { ...at(ref, analysisUuid), body: { event_id: eventId, scorer_id: scorerId } },
    ),
};

export const scorerQueries = {
  list: (ref: VideoRef, analysisUuid: string) =>
    queryOptions({
      queryKey: scorerKeys.list(analysisUuid),
      queryFn: () => scorerApi.list(ref, analysisUuid),
      // Someone may have started scoring since: ask afresh each time the run opens.
      staleTime: 0,
    }),
};

/** Whoever else has scored the run, in words ("Ada Lovelace (12 events, blind)"), or an empty list. */
export function othersWhoScored(scorers: Scorers, meId: number): string[] {
  const blind = scorers.scorers
    .filter((s) => s.user.id !== meId)
    .map((s) => `${s.user.display_name} (${s.decided} event${s.decided === 1 ? '' : 's'}, blind)`);
  const consensus = scorers.consensus_reviewers
    .filter((r) => r.user.id !== meId)
    .map((r) => `${r.user.display_name} (${r.decided} event${r.decided === 1 ? '' : 's'} of the consensus)`);
  return [...consensus, ...blind];
}

/**
 * The mode a run opens in, or 'ask': a member with a blind scoring opens it; one who has decided on the consensus, or
 * chose it before, or is the first to score, works on the consensus; anyone else is asked.
 */
export function initialMode(scorers: Scorers, meId: number, rememberedConsensus: boolean): ScoringMode | 'ask' {
  if (scorers.mine) return 'mine';
  if (rememberedConsensus || scorers.consensus_reviewers.some((r) => r.user.id === meId)) return 'consensus';
  return othersWhoScored(scorers, meId).length > 0 ? 'ask' : 'consensus';
}

const consensusKey = (meId: number, analysisUuid: string) => `quick-score-consensus:${meId}:${analysisUuid}`;
export const consensusChoice = {
  read: (meId: number, analysisUuid: string) => {
    try {
      return window.localStorage.getItem(consensusKey(meId, analysisUuid)) === '1';
    } catch {
      return false;
    }
  },
  remember: (meId: number, analysisUuid: string) => {
    try {
      window.localStorage.setItem(consensusKey(meId, analysisUuid), '1');
    } catch {
      // Storage unavailable: the question comes back next time, nothing else is lost.
    }
  },
};
