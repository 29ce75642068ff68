/**
 * Suggestions over HTTP (issue 25, ADR 038), on the generated scenes of the engine's measure imported as time series
 * (three 10-minute videos: twitches and bursts kept and labelled, slow drifts discarded): reviews counted and a
 * training started by itself at 50, the models listed with every version's figures, suggestions where the classes
 * qualify at the reader's bar, accepting one and accepting all ≥ p, the export's columns, and who may do what.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createUser, type TestUser } from '../../../test/factories.js';
import { createProjectWithSubject, type ProjectWithSubject } from '../../../test/factories-videos.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { analyses, suggestionScopes, videos } from '../../db/schema.js';
import { EVENT_COLUMNS } from '../analysis/analysis.exports.js';
import { type ReviewedEvent, reviewScene } from './engine/review-scenes.js';
import { trainScope } from './suggestions.training.js';

interface ApiEvent {
  id: number;
  time: number;
  original_time: number | null;
  label: string | null;
  discarded: boolean;
  reviewed_by: { id: number; display_name: string } | null;
  suggestion: { discard: boolean; label: string | null; confidence: number; model_version: number } | null;
  accepted_suggestion: {
    discard: boolean;
    label: string | null;
    confidence: number;
    model_version: number;
    accepted_by: { id: number } | null;
    in_bulk: boolean;
  } | null;
}
interface Figures {
  examples: number;
  predicted: number;
  precision: number | null;
  recall: number | null;
}
interface ModelAnswer {
  kind: string;
  model_uuid: string | null;
  version: number | null;
  examples: number | null;
  videos: number | null;
  decisions: { keep: Figures; discard: Figures } | null;
  labels: (Figures & { label: string | null })[];
  training: { state: string; reviews_since_training: number; train_after_reviews: number; error: string | null };
  history: { version: number; examples: number; decisions: { discard: Figures } }[];
}

describe('suggestions API', () => {
  let t: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let viewer: TestUser;
  let outsider: TestUser;
  let project: ProjectWithSubject;
  /** Per video: the events URL base, the run and the reviewer's truth by frame. */
  const runs: { base: string; analysisUuid: string; truth: Map<number, ReviewedEvent> }[] = [];

  const call = (user: TestUser, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: user.headers, ...(payload ? { payload } : {}) });
  const modelsUrl = () => `/api/projects/${project.projectUuid}/models/`;
  const frameOf = (time: number) => Math.round(time * 30);

  /** A ready 10-minute video row of `target` with a run imported from the scene's series over the API. */
  async function importScene(target: ProjectWithSubject, seed: number) {
    const videoUuid = randomUUID();
    await t.ctx.db.insert(videos).values({
      videoUuid,
      projectUuid: target.projectUuid,
      subjectUuid: target.subjectUuid,
      name: `Scene ${seed}`,
      originalFilename: `scene-${seed}.mp4`,
      originalKey: `scene-${seed}`,
      status: 'ready',
      fps: 30,
      frameCount: 18_000,
      durationS: 600,
      width: 320,
      height: 240,
    });
    const scene = reviewScene(seed);
    const base = `${target.videosUrl}${videoUuid}/analysis/`;
    const boundary = `----scene${randomUUID().replace(/-/g, '')}`;
    const csv = `value\n${Array.from(scene.series.values).join('\n')}\n`;
    const imported = await t.app.inject({
      method: 'POST',
      url: `${base}import_timeseries/`,
      headers: { ...owner.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="timeseries"; filename="scene.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
    });
    expect(imported.statusCode, imported.body).toBe(201);
    const truth = new Map(scene.events.map((event) => [frameOf(event.time), event]));
    return { base, analysisUuid: imported.json().analysis_uuid as string, truth };
  }

  const events = async (run: (typeof runs)[number], user: TestUser = owner, query = '') => {
    const response = await call(user, 'GET', `${run.base}retrieve-events/?analysis_uuid=${run.analysisUuid}${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { version: number; events: ApiEvent[] };
  };

  const update = (run: (typeof runs)[number], user: TestUser, version: number, changes: object[]) =>
    call(user, 'POST', `${run.base}update-events/`, { analysis_uuid: run.analysisUuid, version, changes });

  /** Decides on events [from, to) of the run as the careful reviewer would, in one call. */
  async function review(run: (typeof runs)[number], from: number, to: number, user: TestUser = member) {
    const { version, events: list } = await events(run);
    const changes = list.slice(from, to).map((event) => {
      const truth = run.truth.get(frameOf(event.original_time!))!;
      if (truth.discarded) return { action: 'discard', id: event.id };
      return truth.label ? { action: 'label', id: event.id, label: truth.label } : { action: 'review', id: event.id };
    });
    const response = await update(run, user, version, changes);
    expect(response.statusCode, response.body).toBe(200);
  }

  const model = async (query = '?kind=timeseries_import', user: TestUser = owner) => {
    const response = await call(user, 'GET', `${modelsUrl()}${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { count: number; results: ModelAnswer[] };
  };

  async function waitForVersion(version: number) {
    const deadline = Date.now() + 90_000;
    for (;;) {
      const [found] = (await model()).results;
      if ((found?.version ?? 0) >= version && found?.training.state !== 'running') return found!;
      if (Date.now() > deadline) throw new Error(`no model version ${version}: ${JSON.stringify(found)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  beforeAll(async () => {
    t = await createTestApp({ workers: true });
    owner = await createUser(t.ctx, { firstName: 'Olga', lastName: 'Owner' });
    member = await createUser(t.ctx, { firstName: 'Mo', lastName: 'Member' });
    viewer = await createUser(t.ctx, { firstName: 'Vi', lastName: 'Viewer' });
    outsider = await createUser(t.ctx);
    project = await createProjectWithSubject(t.ctx, owner);
    await addMember(t.ctx, project.projectUuid, member.id, 'member');
    await addMember(t.ctx, project.projectUuid, viewer.id, 'viewer');
    for (const seed of [1, 2, 3]) runs.push(await importScene(project, seed));
  }, 120_000);
  afterAll(() => t?.close());

  it('counts reviews and trains by itself after 50; lists each version with its cross-validated figures', async () => {
    const [one, two, three] = runs as [(typeof runs)[number], (typeof runs)[number], (typeof runs)[number]];
    await review(one, 0, 30);
    let [scope] = (await model()).results;
    expect(scope).toMatchObject({ kind: 'timeseries_import', model_uuid: null, version: null, history: [] });
    expect(scope!.training).toMatchObject({ state: 'idle', reviews_since_training: 30, train_after_reviews: 50 });
    // No model yet: nothing is suggested.
    expect((await events(one)).events.every((event) => event.suggestion === null)).toBe(true);

    // The 50th review sends the training; update-events answered without waiting for it.
    await review(one, 30, 34);
    await review(two, 0, 16);
    const first = await waitForVersion(1);
    expect(first).toMatchObject({ version: 1, examples: 50, videos: 2 });
    expect(first.training).toMatchObject({ reviews_since_training: 0, error: null });

    await review(two, 16, 33);
    await review(three, 0, 33);
    scope = await waitForVersion(2);
    expect(scope).toMatchObject({ version: 2, examples: 100, videos: 3 });
    // The measure, over HTTP: held-out precision of "discard" ≥ 0.95 with at least 30 examples.
    expect(scope!.decisions!.discard.examples).toBeGreaterThanOrEqual(30);
    expect(scope!.decisions!.discard.precision).toBeGreaterThanOrEqual(0.95);
    expect(scope!.labels.map((label) => label.label).sort()).toEqual(['burst', 'twitch']);
    const kept = scope!.decisions!.keep.examples;
    expect(scope!.labels.reduce((sum, label) => sum + label.examples, 0)).toBe(kept);
    // The history, newest first: precision as the reviews grew.
    expect(scope!.history.map((version) => [version.version, version.examples])).toEqual([
      [2, 100],
      [1, 50],
    ]);
  }, 240_000);

  it('suggests for events nobody decided on, only where the classes reach the bar with 30 examples', async () => {
    const [scope] = (await model()).results;
    const qualifying = (figures: Figures, bar = 0.9) => figures.examples >= 30 && (figures.precision ?? 0) >= bar;
    let right = 0;
    let shown = 0;
    for (const run of runs) {
      for (const event of (await events(run)).events) {
        if (event.reviewed_by) {
          expect(event.suggestion).toBeNull();
          continue;
        }
        if (!event.suggestion) continue;
        shown++;
        expect(event.suggestion.model_version).toBe(2);
        const decision = event.suggestion.discard ? scope!.decisions!.discard : scope!.decisions!.keep;
        expect(qualifying(decision)).toBe(true);
        if (!event.suggestion.discard) {
          expect(qualifying(scope!.labels.find((label) => label.label === event.suggestion!.label)!)).toBe(true);
        }
        const truth = run.truth.get(frameOf(event.original_time!))!;
        if (
          truth.discarded === event.suggestion.discard &&
          (truth.discarded || truth.label === event.suggestion.label)
        ) {
          right++;
        }
      }
    }
    expect(shown).toBeGreaterThan(50);
    expect(right / shown).toBeGreaterThanOrEqual(0.95);
    // A label below 30 examples is never suggested.
    for (const label of scope!.labels.filter((figures) => figures.examples < 30)) {
      for (const run of runs) {
        expect((await events(run)).events.some((event) => event.suggestion?.label === label.label)).toBe(false);
      }
    }
    // A bad bar is refused in the spec's shape.
    const refused = await call(
      owner,
      'GET',
      `${runs[0]!.base}retrieve-events/?analysis_uuid=${runs[0]!.analysisUuid}&min_precision=2`,
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toHaveProperty('min_precision');
  }, 120_000);

  it('a reader’s bar decides: a class is suggested at a bar of its held-out precision, not just above it', async () => {
    const other = await createProjectWithSubject(t.ctx, owner);
    const unsure: (typeof runs)[number][] = [];
    for (const seed of [4, 5, 6]) unsure.push(await importScene(other, seed));
    // A reviewer who discards the drifts and every other burst: "discard" can only be learned so far.
    for (const run of unsure) {
      const { version, events: list } = await events(run);
      let bursts = 0;
      const changes = list.slice(0, 40).map((event) => {
        const truth = run.truth.get(frameOf(event.original_time!))!;
        const discarded = truth.label === 'burst' ? bursts++ % 2 === 0 : truth.discarded;
        if (discarded) return { action: 'discard', id: event.id };
        return { action: 'label', id: event.id, label: truth.label };
      });
      expect((await update(run, owner, version, changes)).statusCode).toBe(200);
    }
    const trained = await call(owner, 'POST', `/api/projects/${other.projectUuid}/models/train/`, {
      kind: 'timeseries_import',
    });
    expect(trained.statusCode, trained.body).toBe(202);
    // The 50th review of the first two runs has already sent a training of its own, which may have started before
    // the third run's reviews: wait for the model of all 120 reviews with nothing left to train, so that the bar
    // below is read from the model the events are then suggested from.
    const deadline = Date.now() + 120_000;
    let found: ModelAnswer | undefined;
    const settled = (answer: ModelAnswer | undefined) =>
      answer?.examples === 120 && answer.training.state !== 'running' && answer.training.state !== 'queued';
    while (!settled(found) && Date.now() < deadline) {
      [found] = (await call(owner, 'GET', `/api/projects/${other.projectUuid}/models/`)).json().results;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(found?.examples, JSON.stringify(found)).toBe(120);
    expect(found?.training.state).toBe('idle');
    const discard = found!.decisions!.discard;
    expect(discard.examples).toBeGreaterThanOrEqual(30);
    // Half the bursts discarded at random: "discard" is learned well, not perfectly.
    expect(discard.precision).toBeGreaterThan(0.5);
    expect(discard.precision).toBeLessThan(0.99);
    const discards = async (bar: number) =>
      (await Promise.all(unsure.map((run) => events(run, owner, `&min_precision=${bar}`)))).flatMap((answer) =>
        answer.events.filter((event) => event.suggestion?.discard),
      ).length;
    const at = Math.floor(discard.precision! * 1000) / 1000;
    expect(await discards(at)).toBeGreaterThan(10);
    expect(await discards(at + 0.001)).toBe(0);
  }, 240_000);

  it('accepts one suggestion by its key: applied, marked reviewed by the person, recorded with its model', async () => {
    const run = runs[0]!;
    const before = await events(run);
    const target = before.events.find(
      (event) => event.suggestion && !event.suggestion.discard && event.suggestion.label,
    );
    const discard = before.events.find((event) => event.suggestion?.discard);
    expect(target && discard).toBeTruthy();
    // A viewer sees the suggestions and cannot accept them.
    expect((await events(run, viewer)).events.find((event) => event.id === target!.id)?.suggestion).toEqual(
      target!.suggestion,
    );
    const refused = await update(run, viewer, before.version, [{ action: 'accept_suggestion', id: target!.id }]);
    expect(refused.statusCode).toBe(403);
    // Suggestions of an older model are refused with a reason, and nothing changes.
    const stale = await update(run, member, before.version, [
      { action: 'accept_suggestion', id: target!.id, model_version: 1 },
    ]);
    expect(stale.statusCode).toBe(400);
    expect(JSON.stringify(stale.json().errors)).toContain('model version 2 now');
    expect((await events(run)).version).toBe(before.version);

    const accepted = await update(run, member, before.version, [
      { action: 'accept_suggestion', id: target!.id, model_version: 2 },
      { action: 'accept_suggestion', id: discard!.id },
    ]);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ accepted: 2, version: before.version + 1 });
    const after = await events(run);
    const labelled = after.events.find((event) => event.id === target!.id)!;
    expect(labelled).toMatchObject({ discarded: false, label: target!.suggestion!.label, suggestion: null });
    expect(labelled.reviewed_by?.id).toBe(member.id);
    expect(labelled.accepted_suggestion).toMatchObject({
      discard: false,
      label: target!.suggestion!.label,
      confidence: target!.suggestion!.confidence,
      model_version: 2,
      accepted_by: { id: member.id },
      in_bulk: false,
    });
    expect(after.events.find((event) => event.id === discard!.id)).toMatchObject({ discarded: true });
    // Decided now: its suggestion is no longer offered.
    const again = await update(run, member, after.version, [{ action: 'accept_suggestion', id: target!.id }]);
    expect(again.statusCode).toBe(400);
  }, 120_000);

  it('accepts all ≥ p: exactly the events shown with that confidence, in bulk, not counted as reviews', async () => {
    const run = runs[1]!;
    const ours = eq(suggestionScopes.projectUuid, project.projectUuid);
    const [scopeRow] = await t.ctx.db.select().from(suggestionScopes).where(ours);
    const before = await events(run);
    const expected = before.events.filter((event) => (event.suggestion?.confidence ?? 0) >= 0.95).map((e) => e.id);
    expect(expected.length).toBeGreaterThan(10);
    const response = await update(run, member, before.version, [
      { action: 'accept_suggestions', min_confidence: 0.95, model_version: 2 },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().accepted).toBe(expected.length);
    const after = await events(run);
    const acceptedIds = after.events.filter((event) => event.accepted_suggestion?.in_bulk).map((event) => event.id);
    expect(acceptedIds.sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
    for (const event of after.events.filter((e) => acceptedIds.includes(e.id))) {
      // Nobody looked: not reviewed, and the event took the suggestion.
      expect(event.reviewed_by).toBeNull();
      expect(event.discarded).toBe(event.accepted_suggestion!.discard);
      if (!event.discarded) expect(event.label).toBe(event.accepted_suggestion!.label);
    }
    const [scopeAfter] = await t.ctx.db.select().from(suggestionScopes).where(ours);
    expect(scopeAfter!.reviewsSinceTraining).toBe(scopeRow!.reviewsSinceTraining);
  }, 120_000);

  it('exports the suggestion and acceptance columns after the spec’s, in CSV and XLSX', async () => {
    const run = runs[1]!;
    const csv = await call(owner, 'GET', `${run.base}${run.analysisUuid}/export/?table=events&format=csv`);
    expect(csv.statusCode).toBe(200);
    const [header, ...lines] = csv.body.trim().split(/\r?\n/);
    const columns = header!.split(',');
    expect(columns.slice(0, 6)).toEqual(['id', 'time', 'original_time', 'label', 'flagged', 'discarded']);
    expect(columns).toEqual(EVENT_COLUMNS);
    expect(columns.slice(-7)).toEqual([
      'suggestion_discard',
      'suggestion_label',
      'suggestion_confidence',
      'suggestion_model_version',
      'suggestion_accepted_by',
      'suggestion_accepted_at',
      'suggestion_accepted_in_bulk',
    ]);
    const bulk = lines.map((line) => line.split(',')).filter((cells) => cells.at(-1) === 'true');
    const listed = (await events(run)).events.filter((event) => event.accepted_suggestion?.in_bulk);
    expect(bulk.length).toBe(listed.length);
    expect(bulk[0]!.at(-3)).toBe('Mo Member');
    expect(bulk[0]!.at(-4)).toBe('2');

    const xlsx = await call(owner, 'GET', `${run.base}${run.analysisUuid}/export/?table=events&format=xlsx`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(EVENT_COLUMNS);
  }, 60_000);

  it('who may: viewers read models and suggestions; members train; outsiders get 404; blind scorers see none', async () => {
    expect((await call(viewer, 'GET', modelsUrl())).statusCode).toBe(200);
    expect((await call(viewer, 'POST', `${modelsUrl()}train/`, { kind: 'timeseries_import' })).statusCode).toBe(403);
    expect((await call(outsider, 'GET', modelsUrl())).statusCode).toBe(404);
    expect((await call(outsider, 'POST', `${modelsUrl()}train/`, { kind: 'timeseries_import' })).statusCode).toBe(404);
    const run = runs[2]!;
    expect(
      (await call(outsider, 'GET', `${run.base}retrieve-events/?analysis_uuid=${run.analysisUuid}`)).statusCode,
    ).toBe(404);
    // "Train now": queued at once; nothing decided on runs of another kind is a 400 that says why.
    const queued = await call(member, 'POST', `${modelsUrl()}train/`, { kind: 'timeseries_import' });
    expect(queued.statusCode, queued.body).toBe(202);
    expect(['queued', 'running']).toContain(queued.json().training.state);
    const nothing = await call(member, 'POST', `${modelsUrl()}train/`, { kind: 'movement_detection' });
    expect(nothing.statusCode).toBe(400);
    expect(JSON.stringify(nothing.json())).toContain('No reviewed events');
    const bad = await call(member, 'POST', `${modelsUrl()}train/`, { kind: 'location_tracking' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toHaveProperty('kind');
    await waitForVersion(3);
    // A blind scorer's own view carries no suggestion, and takes no acceptance.
    const scorerBase = `${run.base}${run.analysisUuid}/`;
    expect([200, 201]).toContain((await call(member, 'POST', `${scorerBase}scorers/`)).statusCode);
    const mine = await call(member, 'GET', `${scorerBase}my-scoring/`);
    expect((mine.json().events as ApiEvent[]).every((event) => event.suggestion === null)).toBe(true);
    const take = await call(member, 'POST', `${scorerBase}my-scoring/update-events/`, {
      version: mine.json().version,
      changes: [{ action: 'accept_suggestion', id: (mine.json().events as ApiEvent[])[50]!.id }],
    });
    expect(take.statusCode).toBe(400);
  }, 120_000);

  it('a training that fails keeps the previous model', async () => {
    const [before] = (await model()).results;
    const [scopeRow] = await t.ctx.db
      .select()
      .from(suggestionScopes)
      .where(eq(suggestionScopes.projectUuid, project.projectUuid));
    // A run whose series is gone from storage: its features cannot be computed.
    const [run] = await t.ctx.db.select().from(analyses).where(eq(analyses.analysisUuid, runs[0]!.analysisUuid));
    await t.ctx.storage.delete(run!.seriesKey!);
    await expect(trainScope(t.ctx, scopeRow!.scopeUuid, null, new AbortController().signal)).rejects.toThrow();
    const [after] = (await model()).results;
    expect(after!.version).toBe(before!.version);
    expect(after!.model_uuid).toBe(before!.model_uuid);
  }, 60_000);
});
