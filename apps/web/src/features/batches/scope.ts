/**
 * Which videos a batch will run on, worked out in the browser from the project's subjects and videos so they can be
 * shown (and adjusted) before Start, with the server's rules (ADR 035): every ready video of the project, of the
 * chosen subjects, or of the subjects whose group is exactly the one chosen (trimmed), or a hand-picked list.
 */
export type Scope =
  | { kind: 'all' }
  | { kind: 'subjects'; subjectUuids: readonly string[] }
  | { kind: 'group'; group: string }
  | { kind: 'videos'; videoUuids: readonly string[] };

export type ScopeKind = Scope['kind'];

export interface ScopeSubject {
  subject_uuid: string;
  name: string;
  group: string;
}

export interface ScopeVideo {
  video_uuid: string;
  subject_uuid: string;
  name: string;
  status: string;
}

export interface MatchedVideo<V extends ScopeVideo, S extends ScopeSubject> {
  video: V;
  subject: S;
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, 'en');

/** The project's groups, each once, by name (subjects without a group are in none). */
export function groupsOf(subjects: readonly ScopeSubject[]): string[] {
  return [...new Set(subjects.map((subject) => subject.group.trim()).filter((group) => group !== ''))].sort((a, b) =>
    a.localeCompare(b, 'en'),
  );
}

/** The videos the scope names, by subject then video name (the batch's own order); only ready ones run. */
export function matchVideos<V extends ScopeVideo, S extends ScopeSubject>(
  scope: Scope,
  subjects: readonly S[],
  videos: readonly V[],
): MatchedVideo<V, S>[] {
  const subjectsById = new Map(subjects.map((subject) => [subject.subject_uuid, subject]));
  const wanted = (video: V, subject: S) => {
    switch (scope.kind) {
      case 'all':
        return true;
      case 'subjects':
        return scope.subjectUuids.includes(subject.subject_uuid);
      case 'group':
        return subject.group.trim() === scope.group.trim();
      case 'videos':
        return scope.videoUuids.includes(video.video_uuid);
    }
  };
  return videos
    .flatMap((video) => {
      const subject = subjectsById.get(video.subject_uuid);
      return subject && video.status === 'ready' && wanted(video, subject) ? [{ video, subject }] : [];
    })
    .sort((a, b) => byName(a.subject, b.subject) || byName(a.video, b.video));
}

/** The scope as the batch request names it (every video: nothing). */
export function scopeBody(scope: Scope): { video_uuids?: string[]; subject_uuids?: string[]; group?: string } {
  switch (scope.kind) {
    case 'all':
      return {};
    case 'subjects':
      return { subject_uuids: [...scope.subjectUuids] };
    case 'group':
      return { group: scope.group.trim() };
    case 'videos':
      return { video_uuids: [...scope.videoUuids] };
  }
}
