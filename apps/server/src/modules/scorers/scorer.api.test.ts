import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, type TestUser } from '../../../test/factories.js';
import { createProjectWithSubject, type ProjectWithSubject } from '../../../test/factories-videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { analyses, analysisEvents, videos } from '../../db/schema.js';

interface ApiEvent {
  id: number;
  time: number;
  original_time: number | null;
  label: string | null;
  flagged: boolean;
  discarded: boolean;
  reviewed_by: { id: number } | null;
  resolved_by: { id: number; display_name: string } | null;
  resolved_at: string | null;
}

/**
 * Reference figures computed here the plain way, not by the engine: events are kept times matched when equal (the
 * test's times are far apart or identical), kappa from its definition over kept/discarded per detected event.
 */
function referenceF1(reference: number[], candidate: number[]) {
  const tp = reference.filter((time) => candidate.includes(time)).length;
  const precision = tp / candidate.length;
  const recall = tp / reference.length;
  return {
    tp,
    fp: candidate.length - tp,
    fn: reference.length - tp,
    f1: (2 * precision * recall) / (precision + recall),
  };
}
function referenceKappa(a: boolean[], b: boolean[]) {
  const n = a.length;
  const observed = a.filter((kept, i) => kept === b[i]).length / n;
  const pA = a.filter(Boolean).length / n;
  const pB = b.filter(Boolean).length / n;
  const expected = pA * pB + (1 - pA) * (1 - pB);
  return (observed - expected) / (1 - expected);
}

/** Blind second scoring (ADR 014): scorings of one's own, their agreement, and the consensus's resolutions. */
describe('Scorers API', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let owner: TestUser;
  let viewer: TestUser;
  let outsider: TestUser;
  let project: ProjectWithSubject;
  let videoUrl: string;
  let run: string;

  const call = (user: TestUser, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });
  const runUrl = () => `${videoUrl}analysis/${run}/`;
  const consensus = async () =>
    (await call(owner, 'GET', `${videoUrl}analysis/retrieve-events/?analysis_uuid=${run}`)).json().events as ApiEvent[];
  const scoring = async (user: TestUser) => (await call(user, 'GET', `${runUrl()}my-scoring/`)).json();

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t.ctx, { firstName: 'Olga', lastName: 'Owner' });
    ada = await createUser(t.ctx, { firstName: 'Ada', lastName: 'Lovelace' });
    bob = await createUser(t.ctx, { firstName: 'Bob', lastName: 'Marley' });
    viewer = await createUser(t.ctx);
    outsider = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
    await addMember(t.ctx, project.projectUuid, ada.id, 'member');
    await addMember(t.ctx, project.projectUuid, bob.id, 'member');
    await addMember(t.ctx, project.projectUuid, viewer.id, 'viewer');
    // A ready 60 s video at 30 fps with a succeeded run of six events, one a second from 0.5 s.
    const videoUuid = randomUUID();
    await t.ctx.db.insert(videos).values({
      videoUuid,
      projectUuid: project.projectUuid,
      subjectUuid: project.subjectUuid,
      name: 'Scored twice',
      originalFilename: 'twice.mp4',
      status: 'ready',
      fps: 30,
      frameCount: 1800,
      durationS: 60,
      width: 320,
      height: 240,
    });
    const [row] = await t.ctx.db
      .insert(analyses)
      .values({
        projectUuid: project.projectUuid,
        subjectUuid: project.subjectUuid,
        videoUuid,
        kind: 'movement_detection',
        parameters: {},
        status: 'succeeded',
        softwareVersion: 'test',
        source: { fps: 30 },
        createdById: owner.id,
        nextEventId: 7,
      })
      .returning();
    run = row!.analysisUuid;
    await t.ctx.db
      .insert(analysisEvents)
      .values(
        Array.from({ length: 6 }, (_, i) => ({ analysisUuid: run, id: i + 1, time: i + 0.5, originalTime: i + 0.5 })),
      );
    videoUrl = `${project.videosUrl}${videoUuid}/`;
  });
  afterAll(() => t?.close());

  it('keeps a blind scorer from every decision of the consensus, and the consensus from theirs', async () => {
    // Ada reviews the consensus: discards events 1 and 2, labels and moves event 3, adds one at 10.25 s.
    const adaChanges = await call(ada, 'POST', `${videoUrl}analysis/update-events/`, {
      analysis_uuid: run,
      version: 0,
      changes: [
        { action: 'discard', id: 1 },
        { action: 'discard', id: 2 },
        { action: 'label', id: 3, label: 'rearing' },
        { action: 'flag', id: 3 },
        { action: 'add', time: 10.25 },
      ],
    });
    expect(adaChanges.statusCode).toBe(200);
    expect(
      (
        await call(ada, 'POST', `${videoUrl}analysis/update-events/`, {
          analysis_uuid: run,
          version: 1,
          changes: [{ action: 'move', id: 3, time: 2.6 }],
        })
      ).statusCode,
    ).toBe(200);

    // Bob is told who scored before him, then starts his own scoring.
    const before = (await call(bob, 'GET', `${runUrl()}scorers/`)).json();
    expect(before).toEqual({
      analysis_uuid: run,
      scorers: [],
      consensus_reviewers: [{ user: { id: ada.id, display_name: 'Ada Lovelace' }, decided: 4 }],
      mine: false,
    });
    expect((await call(bob, 'GET', `${runUrl()}my-scoring/`)).statusCode).toBe(404);
    const started = await call(bob, 'POST', `${runUrl()}scorers/`);
    expect(started.statusCode).toBe(200);
    expect(started.json()).toMatchObject({ mine: true, scorers: [{ user: { id: bob.id }, decided: 0 }] });

    // His scoring shows the run as detected: none of Ada's discards, labels, flags, moves or additions.
    const blind = await scoring(bob);
    expect(blind.version).toBe(0);
    expect(blind.events.map((e: ApiEvent) => [e.id, e.time, e.label, e.flagged, e.discarded, e.reviewed_by])).toEqual(
      [1, 2, 3, 4, 5, 6].map((id) => [id, id - 0.5, null, false, false, null]),
    );
    expect(JSON.stringify(blind)).not.toContain('Ada');

    // Bob scores: discards 1 and 4, steps past 2, adds an event at 20.5 s.
    const update = (version: number, changes: object[]) =>
      call(bob, 'POST', `${runUrl()}my-scoring/update-events/`, { version, changes, answer: 'changed' });
    const scored = await update(0, [
      { action: 'discard', id: 1 },
      { action: 'discard', id: 4 },
      { action: 'add', time: 20.5, label: 'twitch' },
    ]);
    expect(scored.statusCode).toBe(200);
    expect(scored.json().version).toBe(1);
    expect(scored.json().added_ids).toEqual([8]); // 7 went to Ada's addition: one id names one event everywhere
    expect((await update(1, [{ action: 'review', id: 2 }])).json().version).toBe(1);
    expect((await update(0, [{ action: 'flag', id: 5 }])).statusCode).toBe(409);
    expect((await update(1, [{ action: 'delete', id: 5 }])).json()).toEqual({
      errors: { changes: ['Change 1: event 5 was detected: discard it instead of deleting it.'] },
    });
    expect((await update(1, [{ action: 'add', time: 20.51 }])).json()).toEqual({
      errors: { changes: ['Change 1: there is already an event at 20.51 s.'] },
    });
    const mine = (await scoring(bob)).events as ApiEvent[];
    expect(mine.map((e) => [e.id, e.time, e.discarded, e.reviewed_by?.id ?? null])).toEqual([
      [1, 0.5, true, bob.id],
      [2, 1.5, false, bob.id],
      [3, 2.5, false, null],
      [4, 3.5, true, bob.id],
      [5, 4.5, false, null],
      [6, 5.5, false, null],
      [8, 20.5, false, bob.id],
    ]);

    // The consensus did not move: event 4 kept, no event at 20.5 s; Ada's own scoring does not exist.
    const after = await consensus();
    expect(after.find((e) => e.id === 4)!.discarded).toBe(false);
    expect(after.map((e) => e.time)).toEqual([0.5, 1.5, 2.6, 3.5, 4.5, 5.5, 10.25]);
    expect((await call(ada, 'GET', `${runUrl()}my-scoring/`)).statusCode).toBe(404);
    expect((await call(ada, 'GET', `${runUrl()}scorers/`)).json().scorers).toEqual([
      { user: { id: bob.id, display_name: 'Bob Marley' }, started_at: expect.any(String), decided: 4 },
    ]);
  });

  it("compares the consensus with a blind scorer: the engine's F1, and kappa of the decisions", async () => {
    const answer = await call(owner, 'POST', `${videoUrl}agreement/`, {
      reference: { kind: 'run_reviewed', analysis_uuid: run },
      candidate: { kind: 'scorer', analysis_uuid: run, user_id: bob.id },
      tolerance_s: 0.05,
    });
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(body.candidate).toMatchObject({ kind: 'scorer', events: 5 });
    expect(body.candidate.description).toMatch(/events as scored blind by Bob Marley$/);
    // Kept times: the consensus 2.6, 3.5, 4.5, 5.5, 10.25; Bob 1.5, 2.5, 4.5, 5.5, 20.5.
    const expected = referenceF1([2.6, 3.5, 4.5, 5.5, 10.25], [1.5, 2.5, 4.5, 5.5, 20.5]);
    expect(body.events).toMatchObject({ tp: expected.tp, fp: expected.fp, fn: expected.fn });
    expect(body.events.f1).toBeCloseTo(expected.f1, 12);
    // Detected events 1–6 kept by the consensus / by Bob.
    const consensusKept = [false, false, true, true, true, true];
    const bobKept = [false, true, true, false, true, true];
    expect(body.decisions).toMatchObject({
      both_kept: 3,
      reference_only_kept: 1,
      candidate_only_kept: 1,
      both_discarded: 1,
    });
    expect(body.decisions.kappa).toBeCloseTo(referenceKappa(consensusKept, bobKept), 12);
    expect(body.decisions.kappa).toBeCloseTo(0.25, 12);
    expect(body.decisions.differences).toEqual([
      { event_id: 2, time: 1.5, reference_kept: false, candidate_kept: true, resolved_by: null },
      { event_id: 4, time: 3.5, reference_kept: true, candidate_kept: false, resolved_by: null },
    ]);
    expect(body.decisions.percent_agreement).toBeCloseTo((4 / 6) * 100, 12);

    // Two blind scorers compare the same way; a scorer who is not one is a field error.
    const refused = await call(owner, 'POST', `${videoUrl}agreement/`, {
      reference: { kind: 'scorer', analysis_uuid: run, user_id: ada.id },
      candidate: { kind: 'scorer', analysis_uuid: run },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toMatchObject({ 'candidate.user_id': ['Name the scorer (user_id).'] });
    const notScoring = await call(owner, 'POST', `${videoUrl}agreement/`, {
      reference: { kind: 'scorer', analysis_uuid: run, user_id: ada.id },
      candidate: { kind: 'scorer', analysis_uuid: run, user_id: bob.id },
    });
    expect(notScoring.json()).toEqual({
      errors: { 'reference.user_id': ['That user is not scoring this run on their own.'] },
    });
  });

  it('resolves differences in the consensus, recording who decided', async () => {
    const resolve = (user: TestUser, payload: object) => call(user, 'POST', `${runUrl()}consensus/resolve/`, payload);
    // Olga takes Bob's discard of event 4.
    const taken = await resolve(owner, { event_id: 4, scorer_id: bob.id });
    expect(taken.statusCode).toBe(200);
    const [four] = taken.json().events as ApiEvent[];
    expect(four).toMatchObject({ id: 4, discarded: true, resolved_by: { id: owner.id, display_name: 'Olga Owner' } });
    expect(Date.parse(four!.resolved_at!)).toBeGreaterThan(Date.now() - 60_000);
    // Bob's added event joins the consensus under its id; event 2 keeps the consensus's value, settled by Ada.
    expect((await resolve(owner, { event_id: 8, scorer_id: bob.id })).json().events[0]).toMatchObject({
      id: 8,
      time: 20.5,
      label: 'twitch',
      original_time: null,
      resolved_by: { id: owner.id },
    });
    expect((await resolve(ada, { event_id: 2, scorer_id: null })).json().events[0]).toMatchObject({
      id: 2,
      discarded: true,
      resolved_by: { id: ada.id },
      reviewed_by: { id: ada.id },
    });
    const now = await consensus();
    expect(now.filter((e) => e.resolved_by).map((e) => e.id)).toEqual([2, 4, 8]);
    expect(now.find((e) => e.id === 6)!.resolved_by).toBeNull();
    // The consensus view names who settled what: event 4 now agrees with Bob, event 2 was settled by Ada.
    const view = await call(owner, 'POST', `${videoUrl}agreement/`, {
      reference: { kind: 'run_reviewed', analysis_uuid: run },
      candidate: { kind: 'scorer', analysis_uuid: run, user_id: bob.id },
      tolerance_s: 0.05,
    });
    expect(view.json().decisions.differences).toEqual([
      { event_id: 2, time: 1.5, reference_kept: false, candidate_kept: true, resolved_by: 'Ada Lovelace' },
    ]);
    // Bob's scoring is his still.
    expect(((await scoring(bob)).events as ApiEvent[]).find((e) => e.id === 2)!.discarded).toBe(false);

    expect((await resolve(owner, { event_id: 99, scorer_id: null })).json()).toEqual({
      errors: { event_id: ['Neither the run nor that scoring has an event with that id.'] },
    });
    expect((await resolve(owner, { event_id: 1, scorer_id: viewer.id })).json()).toEqual({
      errors: { scorer_id: ['That user is not scoring this run on their own.'] },
    });
  });

  it('lets viewers see who scored but not score or resolve; non-members get 404', async () => {
    expect((await call(viewer, 'GET', `${runUrl()}scorers/`)).statusCode).toBe(200);
    expect((await call(viewer, 'POST', `${runUrl()}scorers/`)).statusCode).toBe(403);
    expect((await call(viewer, 'GET', `${runUrl()}my-scoring/`)).statusCode).toBe(403);
    const change = { version: 0, changes: [{ action: 'discard', id: 1 }] };
    expect((await call(viewer, 'POST', `${runUrl()}my-scoring/update-events/`, change)).statusCode).toBe(403);
    expect(
      (await call(viewer, 'POST', `${runUrl()}consensus/resolve/`, { event_id: 1, scorer_id: null })).statusCode,
    ).toBe(403);
    for (const [method, path] of [
      ['GET', 'scorers/'],
      ['POST', 'scorers/'],
      ['GET', 'my-scoring/'],
    ] as const) {
      expect((await call(outsider, method, `${runUrl()}${path}`)).statusCode).toBe(404);
    }
    expect((await call(outsider, 'POST', `${runUrl()}my-scoring/update-events/`, change)).statusCode).toBe(404);
  });

  it('keeps the scorings with the run through the trash', async () => {
    const before = await scoring(bob);
    expect((await call(owner, 'DELETE', runUrl())).statusCode).toBe(204);
    expect((await call(bob, 'GET', `${runUrl()}my-scoring/`)).statusCode).toBe(404);
    const restored = await call(owner, 'POST', `/api/projects/${project.projectUuid}/trash/${run}/restore/`);
    expect(restored.statusCode).toBe(200);
    expect(await scoring(bob)).toEqual(before);
    expect((await call(bob, 'GET', `${runUrl()}scorers/`)).json()).toMatchObject({ mine: true });
  });
});
