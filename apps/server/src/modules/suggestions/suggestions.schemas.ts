import { z } from 'zod';
import { analysisKinds } from '../../db/schema.js';

export const modelsParams = z.object({ project_uuid: z.string() });

/** Kinds whose runs have events (a location-tracking run has none to suggest for). */
export const suggestableKinds = analysisKinds.filter((kind) => kind !== 'location_tracking') as [
  (typeof analysisKinds)[number],
  ...(typeof analysisKinds)[number][],
];

const kind = z.enum(suggestableKinds, { error: `kind must be one of: ${suggestableKinds.join(', ')}.` });
const protocolUuid = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'Must be a valid UUID.')
  .nullable();

export const modelsQuery = z.object({
  page: z.coerce.number().int().min(1, 'Must be 1 or more.').default(1),
  page_size: z.coerce.number().int().min(1, 'Must be 1 or more.').max(100, 'Must be at most 100.').default(20),
  kind: kind.optional(),
  protocol_uuid: z
    .string()
    .optional()
    .meta({ description: 'Only the model of runs made from this protocol; `none` for runs made without one' }),
});

export const trainBody = z.object({
  kind,
  protocol_uuid: protocolUuid
    .default(null)
    .meta({ description: "The runs' protocol (ADR 031); null (the default) for runs made without one" }),
});

const classFigures = z.object({
  examples: z.int().meta({ description: 'Reviewed events of this class the model learned from' }),
  predicted: z.int().meta({ description: 'Held-out predictions of this class' }),
  precision: z.number().nullable().meta({
    description: 'Of those, the share that were right (cross-validated by video); null when none or one video',
  }),
  recall: z.number().nullable().meta({ description: 'Of its examples, the share predicted as it (held out)' }),
});

const versionFigures = {
  model_uuid: z.string(),
  version: z.int(),
  trained_at: z.string(),
  examples: z.int().meta({ description: 'Reviewed events learned from' }),
  videos: z.int(),
  runs: z.int(),
  decisions: z
    .object({ keep: classFigures, discard: classFigures })
    .meta({ description: 'Held-out figures of the decision: keep and discard' }),
  labels: z
    .array(classFigures.extend({ label: z.string().nullable().meta({ description: 'null: kept without a label' }) }))
    .meta({ description: 'Held-out figures of each label of kept events' }),
};

export const modelVersionSchema = z.object(versionFigures);

export const modelSchema = z.object({
  kind: z.enum(analysisKinds),
  protocol_uuid: z.string().nullable(),
  protocol_name: z.string().nullable(),
  model_uuid: z.string().nullable().meta({ description: 'The newest version (null before the first training)' }),
  version: z.int().nullable(),
  trained_at: z.string().nullable(),
  examples: z.int().nullable(),
  videos: z.int().nullable(),
  runs: z.int().nullable(),
  features: z.array(z.string()).meta({ description: "The newest version's features (pose_* when it uses pose sets)" }),
  decisions: versionFigures.decisions.nullable(),
  labels: versionFigures.labels,
  training: z.object({
    state: z
      .enum(['idle', 'queued', 'running', 'failed'])
      .meta({ description: 'The last training job: waiting, running, failed for good, or none under way' }),
    reviews_since_training: z.int(),
    train_after_reviews: z.int().meta({ description: 'A training is queued once this many new reviews are counted' }),
    error: z.string().nullable().meta({ description: 'Why the last training made no model, if it did not' }),
  }),
  history: z
    .array(modelVersionSchema)
    .meta({ description: 'Every version, newest first (at most 200): how precision grew with the reviews' }),
});
