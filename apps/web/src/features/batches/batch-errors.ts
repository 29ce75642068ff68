/**
 * A refused batch request's messages (400 `errors`), sorted by where the page shows them: the videos' choice
 * (`video_uuids`, `subject_uuids`, `group`), one video's (`videos.<uuid>.<field>` from its run's checks,
 * `overrides.<uuid>.<field>` from its adjustment's), or the rest.
 */
import { ApiError } from '@/lib/api-client';

export interface BatchErrors {
  scope: string[];
  byVideo: Record<string, string[]>;
  other: string[];
}

const SCOPE_KEYS = new Set(['video_uuids', 'subject_uuids', 'group', 'videos']);

export function batchErrors(error: unknown): BatchErrors {
  const out: BatchErrors = { scope: [], byVideo: {}, other: [] };
  if (!(error instanceof ApiError)) return out;
  const body = (error.body as { errors?: unknown } | null)?.errors;
  if (typeof body === 'string') {
    out.other.push(body);
    return out;
  }
  for (const [key, messages] of Object.entries(error.fieldErrors)) {
    const [head, video, ...rest] = key.split('.');
    if ((head === 'videos' || head === 'overrides') && video) {
      const field = rest.join('.');
      // The run's messages already name the video; an adjustment's are said with its field.
      const said = head === 'overrides' && field ? messages.map((message) => `${field}: ${message}`) : messages;
      out.byVideo[video] = [...(out.byVideo[video] ?? []), ...said];
    } else if (SCOPE_KEYS.has(key)) out.scope.push(...messages);
    else out.other.push(...messages.map((message) => (key === 'protocol_uuid' ? message : `${key}: ${message}`)));
  }
  return out;
}
