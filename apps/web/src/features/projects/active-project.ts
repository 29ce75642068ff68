/** Pure rules of the active project (spec §2, §4), kept apart from React so they are unit-tested. */

/**
 * If none is active or the active one is not in the user's list, the stored one is used when it is
 * in the list, otherwise the first project (null when the user has none).
 */
export function chooseActiveProject(
  active: string | null,
  stored: string | null,
  projectUuids: readonly string[],
): string | null {
  if (active && projectUuids.includes(active)) return active;
  if (stored && projectUuids.includes(stored)) return stored;
  return projectUuids[0] ?? null;
}

/** First-level segments of the project-scoped routes (the project page itself is "projects"). */
export const PROJECT_SECTIONS = [
  'subjects',
  'analysis-logs',
  'movement-detector',
  'location-tracker',
  'pose',
  'quick-score',
  'annotator',
] as const;

const UUID_SEGMENT = '[^/]+';

/** The project uuid a path names (/projects/{uuid} or /projects/{uuid}/...), else null. */
export function projectUuidFromPath(pathname: string): string | null {
  const match = new RegExp(`^/projects/(${UUID_SEGMENT})(?:/|$)`).exec(pathname);
  return match ? decodeURIComponent(match[1]!) : null;
}

/**
 * The long form of a short project-scoped path: /subjects/x → /projects/{uuid}/subjects/x,
 * /projects → /projects/{uuid}. Paths that already name a project are returned unchanged.
 */
export function withProjectInPath(pathname: string, projectUuid: string): string {
  if (projectUuidFromPath(pathname)) return pathname;
  const clean = pathname.replace(/\/+$/, '') || '/';
  const base = `/projects/${encodeURIComponent(projectUuid)}`;
  if (clean === '/projects') return base;
  return `${base}${clean}`;
}

/** Swaps the project of a project-scoped path (used by the switcher to stay on the same section). */
export function sectionOfPath(pathname: string): string | null {
  const uuid = projectUuidFromPath(pathname);
  const rest = uuid ? pathname.slice(`/projects/${encodeURIComponent(uuid)}`.length) : pathname;
  const first = rest.split('/').filter(Boolean)[0];
  return first && (PROJECT_SECTIONS as readonly string[]).includes(first) ? first : null;
}
