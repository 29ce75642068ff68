import { z } from 'zod';

const metadataValue = z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]);

/** Free key/values a lab records per animal: sex, strain, genotype, date of birth… */
export const subjectMetadataSchema = z
  .record(
    z.string().trim().min(1, 'Keys may not be blank.').max(100, 'Keys must be at most 100 characters.'),
    metadataValue,
  )
  .refine((value) => Object.keys(value).length <= 100, 'At most 100 metadata fields.');

const subjectName = z
  .string({ error: 'This field is required.' })
  .trim()
  .min(1, 'This field may not be blank.')
  .max(100, 'Must be at most 100 characters.');

export const createSubjectBody = z.object({
  name: subjectName,
  group: z.string().trim().max(100, 'Must be at most 100 characters.').default(''),
  notes: z.string().max(10_000, 'Must be at most 10000 characters.').default(''),
  metadata: subjectMetadataSchema.default({}),
});

export const updateSubjectBody = createSubjectBody;

export const patchSubjectBody = z.object({
  name: subjectName.optional(),
  group: z.string().trim().max(100, 'Must be at most 100 characters.').optional(),
  notes: z.string().max(10_000, 'Must be at most 10000 characters.').optional(),
  metadata: subjectMetadataSchema.optional(),
});

export const bulkDeleteBody = z.object({
  subject_uuids: z
    .array(z.string(), { error: 'A list of subject ids is required.' })
    .min(1, 'Give at least one subject.')
    .max(500, 'At most 500 subjects at once.'),
});

export const subjectListParams = z.object({ project_uuid: z.string() });
export const subjectParams = z.object({ project_uuid: z.string(), subject_uuid: z.string() });

export const subjectSchema = z.object({
  subject_uuid: z.string().uuid(),
  project_uuid: z.string().uuid(),
  name: z.string(),
  group: z.string(),
  notes: z.string(),
  metadata: z.record(z.string(), metadataValue),
  video_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SubjectResponse = z.infer<typeof subjectSchema>;

export const SUBJECT_ORDERING = ['name', 'group', 'created_at', 'updated_at', 'video_count'] as const;
