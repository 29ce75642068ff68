/**
 * A protocol's parameters are checked by the very schema a run of its kind uses, so a protocol never holds what a
 * run would refuse for itself. What needs one video — geometry inside its picture, ROIs starting before its end,
 * reference frames within its frame count, a reference video of its size, bypass ranges cut at its end — is checked
 * when the protocol is applied to a video, by the run's own parser (ADR 031).
 */
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { type ProtocolKind, videos } from '../../db/schema.js';
import { isUuid } from '../../lib/access.js';
import { badRequest } from '../../lib/errors.js';
import { parameterErrors } from '../analysis/analysis.parameter-errors.js';
import { eventDetectionParameters, movementParameters } from '../analysis/analysis.schemas.js';
import { locationParameters } from '../analysis/location.schemas.js';

const schemas = {
  movement_detection: movementParameters,
  location_tracking: locationParameters,
  event_detection: eventDetectionParameters,
} as const;

/** The parameters as a protocol keeps them (every default filled in), or 400 by `parameters.<field>`. */
export async function parseProtocolParameters(
  context: AppContext,
  projectUuid: string,
  kind: ProtocolKind,
  raw: unknown,
): Promise<Record<string, unknown>> {
  const parsed = schemas[kind].safeParse(raw);
  if (!parsed.success) throw parameterErrors(parsed.error);
  const parameters = parsed.data as Record<string, unknown>;
  // An empty-arena reference must be a video of this project now; its size is checked against each tracked video.
  const reference = (parameters.reference as { video_uuid?: string } | null | undefined)?.video_uuid;
  if (reference !== undefined && !(await isProjectVideo(context, projectUuid, reference))) {
    throw badRequest({ 'parameters.reference.video_uuid': ['No video of this project has that id.'] });
  }
  return parameters;
}

async function isProjectVideo(context: AppContext, projectUuid: string, videoUuid: string) {
  if (!isUuid(videoUuid)) return false;
  const [row] = await context.db
    .select({ videoUuid: videos.videoUuid })
    .from(videos)
    .where(and(eq(videos.projectUuid, projectUuid), eq(videos.videoUuid, videoUuid)))
    .limit(1);
  return row !== undefined;
}
