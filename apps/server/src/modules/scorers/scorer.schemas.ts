import { z } from 'zod';
import { userSummarySchema } from '../analysis/analysis.schemas.js';

export const scorerSchema = z.object({
  user: userSummarySchema,
  started_at: z.string(),
  decided: z.int().meta({ description: 'Events this scorer has decided on (changed, or stepped past)' }),
});

export const scorersResponse = z.object({
  analysis_uuid: z.string(),
  scorers: z.array(scorerSchema).meta({ description: 'Blind scorers of the run, first to start first' }),
  consensus_reviewers: z.array(z.object({ user: userSummarySchema, decided: z.int() })).meta({
    description: "Who first decided on the consensus's events (the run's events as reviewed), and on how many",
  }),
  mine: z.boolean().meta({ description: 'Whether the caller scores this run blind' }),
});

export const resolveBody = z.object({
  event_id: z.int({ error: 'event_id must be an event id.' }),
  scorer_id: z
    .int({ error: 'scorer_id must be a user id, or null.' })
    .nullable()
    .meta({ description: "Whose scoring of the event the consensus takes; null keeps the consensus's own" }),
});
