// Quick Score's events of a run: reading them (with suggestions), changing them, and where a reviewer was.
import { z } from 'zod';
import { userSummarySchema } from './analysis.schemas.js';

export const runSelectorQuery = z.object({ analysis_uuid: z.string().optional() });
export const retrieveEventsQuery = runSelectorQuery.extend({
  min_precision: z.coerce
    .number({ error: 'min_precision must be a number.' })
    .min(0.5, 'Must be between 0.5 and 1.')
    .max(1, 'Must be between 0.5 and 1.')
    .default(0.9)
    .meta({
      description:
        "The reader's bar (ADR 038): a suggestion is shown where its classes' held-out precision reaches it (0.5–1, default 0.9)",
    }),
});

export const eventSchema = z.object({
  id: z.int(),
  time: z.number(),
  original_time: z.number().nullable(),
  label: z.string().nullable(),
  flagged: z.boolean(),
  discarded: z.boolean(),
  updated_by: userSummarySchema.nullable(),
  updated_at: z.string().nullable(),
  reviewed_by: userSummarySchema.nullable().meta({
    description:
      'Who decided on the event first in Quick Score (its first change, or the first step past it), never rewritten by a later look',
  }),
  reviewed_at: z.string().nullable().meta({ description: 'When that first decision was made' }),
  last_viewed_by: userSummarySchema.nullable().meta({
    description: 'Who last looked at the event in Quick Score (stepped past it or changed it)',
  }),
  last_viewed_at: z.string().nullable(),
  resolved_by: userSummarySchema.nullable().meta({
    description: 'Who settled a difference between scorers on this event in the consensus (ADR 014)',
  }),
  resolved_at: z.string().nullable(),
  suggestion: z
    .object({
      discard: z.boolean().meta({ description: 'Discard the event (true) or keep it (false)' }),
      label: z.string().nullable().meta({ description: 'For a kept event, its label (null: keep without a label)' }),
      confidence: z.number().meta({
        description:
          "Share of the model's trees voting for it (for a kept event, the smaller of keep's and the label's)",
      }),
      model_version: z.int().meta({ description: 'The version of the model that made it (GET /projects/{p}/models/)' }),
    })
    .nullable()
    .meta({
      description:
        "What the project's newest model suggests for an event nobody decided on yet (ADR 038); null where no model qualifies: the suggested classes' held-out precision must reach min_precision (default 0.9) with at least 30 examples each",
    }),
  accepted_suggestion: z
    .object({
      discard: z.boolean(),
      label: z.string().nullable(),
      confidence: z.number(),
      model_version: z.int(),
      accepted_by: userSummarySchema.nullable(),
      accepted_at: z.string(),
      in_bulk: z.boolean().meta({
        description: 'Accepted by "accept all ≥ p": nobody looked at the event (its reviewed_by stays empty)',
      }),
    })
    .nullable()
    .meta({ description: 'The suggestion accepted for this event, as it was accepted (ADR 038)' }),
});

export const eventsResponse = z.object({
  analysis_uuid: z.string(),
  version: z.int(),
  events: z.array(eventSchema),
});

const eventId = z.int({ error: 'id must be an event id.' });
const precisionBar = z
  .number({ error: 'min_precision must be a number.' })
  .min(0.5, 'Must be between 0.5 and 1.')
  .max(1, 'Must be between 0.5 and 1.')
  .meta({ description: "The held-out precision the suggestion's classes had to reach (default 0.9)" });
const label = z.string().trim().max(100, 'A label has at most 100 characters.').nullable();
export const eventChangeSchema = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('move'), id: eventId, time: z.number() }),
    z.object({
      action: z.literal('add'),
      time: z.number(),
      label: label.optional(),
      flagged: z.boolean().optional(),
    }),
    z.object({ action: z.enum(['discard', 'restore', 'flag', 'unflag', 'delete', 'review']), id: eventId }),
    z.object({ action: z.literal('label'), id: eventId, label }),
    z.object({
      action: z.literal('accept_suggestion'),
      id: eventId,
      model_version: z.int({ error: 'model_version must be a whole number.' }).optional().meta({
        description: 'The model version of the suggestion you saw: refused when the suggestions changed since',
      }),
      min_precision: precisionBar.optional(),
    }),
    z.object({
      action: z.literal('accept_suggestions'),
      min_confidence: z
        .number({ error: 'min_confidence must be a number.' })
        .min(0, 'Must be between 0 and 1.')
        .max(1, 'Must be between 0 and 1.')
        .meta({
          description: 'Accept every suggestion of the run whose confidence is at least this ("accept all ≥ p")',
        }),
      model_version: z.int({ error: 'model_version must be a whole number.' }).meta({
        description: 'The model version of the suggestions you saw: refused when the suggestions changed since',
      }),
      min_precision: precisionBar.optional(),
    }),
  ],
  {
    error:
      'Each change needs an action: move, add, discard, restore, flag, unflag, label, delete, review, accept_suggestion or accept_suggestions.',
  },
);
export type EventChange = z.output<typeof eventChangeSchema>;

export const updateEventsBody = z.object({
  analysis_uuid: z.string().optional(),
  version: z.int({ error: 'version is required: the version of the events you changed.' }),
  changes: z.array(eventChangeSchema).min(1, 'Give at least one change.').max(10_000, 'At most 10000 changes at once.'),
  answer: z
    .enum(['all', 'changed'], { error: 'answer must be "all" or "changed".' })
    .default('all')
    .meta({ description: '"changed": answer only the events this call touched (a long run answers quickly)' }),
});

export const updateEventsResponse = eventsResponse.extend({
  added_ids: z.array(z.int()).meta({ description: 'The ids given to the added events, in the order of their changes' }),
  accepted: z
    .int()
    .meta({ description: 'How many suggestions this call accepted (accept_suggestion, accept_suggestions)' }),
});

export const reviewPositionSchema = z.object({
  analysis_uuid: z.string(),
  event_id: z.int().nullable().meta({ description: 'The event the caller was on; null before the first visit' }),
  updated_at: z.string().nullable(),
});
export const reviewPositionBody = z.object({
  event_id: z.int({ error: 'event_id must be an event id.' }),
});
