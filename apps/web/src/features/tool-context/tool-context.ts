/**
 * What each video tool last worked on, per project and per user, kept in the browser's local storage under
 * `tool-context:<user id>:<project uuid>:<tool>` (JSON `{subject, video, run}`): opening a tool from the sidebar
 * continues there. Not sent to the server and not cleared at log-out — it names only ids the user could open, and
 * is per user, so someone else signing in on the same browser does not see it (ADR 017).
 */
import { readJson, writeStorage } from '@/lib/storage';

export type ToolName = 'movement-detector' | 'location-tracker' | 'pose' | 'quick-score' | 'annotator';

export interface ToolContext {
  subject: string;
  video: string | null;
  run: string | null;
}

export const toolContextKey = (userId: number, projectUuid: string, tool: ToolName) =>
  `tool-context:${userId}:${projectUuid}:${tool}`;

export function readToolContext(userId: number, projectUuid: string, tool: ToolName): ToolContext | null {
  const raw = readJson<Partial<ToolContext>>(toolContextKey(userId, projectUuid, tool));
  if (!raw || typeof raw.subject !== 'string' || !raw.subject) return null;
  const video = typeof raw.video === 'string' && raw.video ? raw.video : null;
  return { subject: raw.subject, video, run: video && typeof raw.run === 'string' && raw.run ? raw.run : null };
}

export function writeToolContext(userId: number, projectUuid: string, tool: ToolName, context: ToolContext): void {
  writeStorage(toolContextKey(userId, projectUuid, tool), JSON.stringify(context));
}
