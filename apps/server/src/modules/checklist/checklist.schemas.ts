import { z } from 'zod';

/** What the project's "Getting started" checklist is ticked from: counts and facts the server already has. */
export const checklistSchema = z.object({
  subjects: z.int().meta({ description: "The project's subjects" }),
  videos_ready: z.int().meta({ description: 'Videos processed and ready to analyse' }),
  runs_succeeded: z.int().meta({ description: 'Analysis runs that finished' }),
  events_reviewed: z.boolean().meta({ description: 'Someone has reviewed or changed an event of a run' }),
  exported: z.boolean().meta({ description: 'One of the project’s exports has been downloaded' }),
});
export type ChecklistResponse = z.infer<typeof checklistSchema>;
