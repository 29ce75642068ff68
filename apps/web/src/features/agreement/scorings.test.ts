import { describe, expect, it } from 'vitest';
import { agreementPath, readAgreementSearch } from './links';
import { decodeScoring, encodeScoring, scoringRequest } from './scorings';

const RUN = '11111111-2222-3333-4444-555555555555';
const TRACK = '66666666-7777-8888-9999-000000000000';

describe('scorings', () => {
  it('round-trip through their URL form', () => {
    for (const scoring of [
      { kind: 'run_detected' as const, analysisUuid: RUN },
      { kind: 'run_reviewed' as const, analysisUuid: RUN, label: null },
      { kind: 'run_reviewed' as const, analysisUuid: RUN, label: 'head: twitch / 2' },
      { kind: 'track' as const, trackUuid: TRACK },
      { kind: 'scorer' as const, analysisUuid: RUN, userId: 42 },
    ]) {
      expect(decodeScoring(encodeScoring(scoring))).toEqual(scoring);
    }
    expect(encodeScoring({ kind: 'upload', upload: { fileName: 'x.csv', events: [1] } })).toBeNull();
    expect(encodeScoring({ kind: 'track' })).toBeNull();
  });

  it('refuse URL forms that name nothing', () => {
    for (const text of [
      '',
      'track',
      'track:',
      'upload:x',
      `run_detected:${RUN}:label`,
      'guess:1',
      `scorer:${RUN}`,
      `scorer:${RUN}:bob`,
      `scorer:${RUN}:0`,
      null,
    ]) {
      expect(decodeScoring(text)).toBeNull();
    }
  });

  it('become the request sides the server reads, or null while incomplete', () => {
    expect(scoringRequest({ kind: 'scorer', analysisUuid: RUN, userId: 7 })).toEqual({
      kind: 'scorer',
      analysis_uuid: RUN,
      user_id: 7,
    });
    expect(scoringRequest({ kind: 'scorer', analysisUuid: RUN, userId: null })).toBeNull();
    expect(scoringRequest({ kind: 'run_reviewed', analysisUuid: RUN, label: 'twitch' })).toEqual({
      kind: 'run_reviewed',
      analysis_uuid: RUN,
      label: 'twitch',
    });
    expect(scoringRequest({ kind: 'run_reviewed', analysisUuid: RUN, label: null })).toEqual({
      kind: 'run_reviewed',
      analysis_uuid: RUN,
    });
    expect(scoringRequest({ kind: 'track', trackUuid: TRACK })).toEqual({
      kind: 'track',
      annotation_config_uuid: TRACK,
    });
    expect(scoringRequest({ kind: 'upload', upload: { fileName: 'b.csv', ranges: [[0, 1]] } })).toEqual({
      kind: 'upload',
      ranges: [[0, 1]],
    });
    expect(scoringRequest({ kind: 'run_detected' })).toBeNull();
    expect(scoringRequest({ kind: 'upload' })).toBeNull();
  });
});

describe('agreement links', () => {
  it('carry the video and the scorings, and read back the same', () => {
    const path = agreementPath('p1', {
      subject: 's1',
      video: 'v1',
      reference: { kind: 'track', trackUuid: TRACK },
      candidate: { kind: 'run_reviewed', analysisUuid: RUN },
    });
    expect(path).toBe(
      `/projects/p1/agreement?subject=s1&video=v1&reference=track%3A${TRACK}&candidate=run_reviewed%3A${RUN}`,
    );
    const read = readAgreementSearch(new URLSearchParams(path.split('?')[1]));
    expect(read).toEqual({
      subject: 's1',
      video: 'v1',
      reference: { kind: 'track', trackUuid: TRACK },
      candidate: { kind: 'run_reviewed', analysisUuid: RUN, label: null },
    });
    expect(agreementPath('p1')).toBe('/projects/p1/agreement');
    // Scorings only count with a video.
    expect(readAgreementSearch(new URLSearchParams(`reference=track:${TRACK}`)).reference).toBeNull();
  });
});
