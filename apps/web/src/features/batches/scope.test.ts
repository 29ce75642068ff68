import { describe, expect, it } from 'vitest';
import { groupsOf, matchVideos, scopeBody } from './scope';

const subjects = [
  { subject_uuid: 's-b', name: 'M2', group: 'control' },
  { subject_uuid: 's-a', name: 'M1', group: ' control ' },
  { subject_uuid: 's-c', name: 'F1', group: 'knockout' },
  { subject_uuid: 's-d', name: 'F9', group: '' },
];
const videos = [
  { video_uuid: 'v1', subject_uuid: 's-b', name: 'Day 2', status: 'ready' },
  { video_uuid: 'v2', subject_uuid: 's-b', name: 'Day 1', status: 'ready' },
  { video_uuid: 'v3', subject_uuid: 's-a', name: 'Day 1', status: 'ready' },
  { video_uuid: 'v4', subject_uuid: 's-c', name: 'Day 1', status: 'processing' },
  { video_uuid: 'v5', subject_uuid: 's-c', name: 'Day 2', status: 'ready' },
  { video_uuid: 'v6', subject_uuid: 's-d', name: 'Day 1', status: 'ready' },
];
const ids = (matched: { video: { video_uuid: string } }[]) => matched.map((item) => item.video.video_uuid);

describe('the videos a batch runs on', () => {
  it('every ready video, by subject then video name', () => {
    expect(ids(matchVideos({ kind: 'all' }, subjects, videos))).toEqual(['v5', 'v6', 'v3', 'v2', 'v1']);
  });

  it('the chosen subjects’ ready videos', () => {
    expect(ids(matchVideos({ kind: 'subjects', subjectUuids: ['s-b', 's-c'] }, subjects, videos))).toEqual([
      'v5',
      'v2',
      'v1',
    ]);
  });

  it('a group, its name compared trimmed', () => {
    expect(ids(matchVideos({ kind: 'group', group: 'control' }, subjects, videos))).toEqual(['v3', 'v2', 'v1']);
    expect(groupsOf(subjects)).toEqual(['control', 'knockout']);
  });

  it('hand-picked videos, the ones not ready left out', () => {
    expect(ids(matchVideos({ kind: 'videos', videoUuids: ['v4', 'v6'] }, subjects, videos))).toEqual(['v6']);
  });

  it('names the scope as the request does', () => {
    expect(scopeBody({ kind: 'all' })).toEqual({});
    expect(scopeBody({ kind: 'group', group: ' control ' })).toEqual({ group: 'control' });
    expect(scopeBody({ kind: 'subjects', subjectUuids: ['s-a'] })).toEqual({ subject_uuids: ['s-a'] });
    expect(scopeBody({ kind: 'videos', videoUuids: ['v1'] })).toEqual({ video_uuids: ['v1'] });
  });
});
