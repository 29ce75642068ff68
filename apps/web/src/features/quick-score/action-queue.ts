/**
 * Quick Score's use of the save queue (lib/save-queue): every action is applied to the page at once and kept in the
 * browser's storage until the server has acknowledged it, sent one call at a time with the version the page knows
 * (review marks travel together), and retried with backoff when the network or the server fails. When someone else
 * saved first (409) the queue reloads the events, keeps each waiting action that still makes sense on top of theirs
 * (and says so), and drops — with a sentence about what changed — those that do not. What the server refuses because
 * the project is locked is kept (not dropped): the queue says it waits for the project to be renewed, tries again
 * slowly, and its actions can be downloaded meanwhile.
 */
import type { EventChange, EventsAnswer, UpdateEventsAnswer } from '@/features/analysis/api';
import { ApiError } from '@/lib/api-client';
import { errorMessage } from '@/lib/errors';
import { countOf } from '@/lib/format';
import type { QueueItem } from '@/lib/save-queue/entry';
import { SaveQueue, type SaveStatus } from '@/lib/save-queue/save-queue';
import type { Tab } from '@/lib/save-queue/tab';
import {
  applyAction,
  applyToList,
  changeOf,
  checkAction,
  describeAction,
  EventList,
  type ReviewAction,
  type Reviewer,
  withId,
} from './review-events';
import { applySuggestion, isSuggestionAction } from './suggestion-actions';

/** An action as "Download unsaved changes" writes it. */
export interface QueuedAction {
  key: string;
  action: ReviewAction;
  /** When it was taken (ms since the epoch). */
  createdAt: number;
}

export interface QueueTransport {
  /** One update-events call with `version`; rejects with an ApiError (or a network error). */
  update(version: number, changes: EventChange[]): Promise<UpdateEventsAnswer>;
  /** The run's events and version now. */
  fetchAll(): Promise<EventsAnswer>;
}

export interface QueueNotice {
  tone: 'info' | 'warning' | 'error';
  message: string;
}

export interface QueueSnapshot extends SaveStatus {
  /** Bumped whenever the events shown change. */
  revision: number;
}

/** Review marks (moving past events) that travel in one call. */
const MARKS_PER_CALL = 200;

/** The key prefix of one user's waiting actions for one run (each tab keeps its own entry under it). */
export const queueKeyPrefix = (userId: number | string, analysisUuid: string) =>
  `quick-score-queue:${userId}:${analysisUuid}:`;

type Item = QueueItem<ReviewAction>;

export class ActionQueue {
  private server = new EventList();
  private shown = new EventList();
  private version = 0;
  private started = false;
  private revision = 0;
  private snapshot: QueueSnapshot;
  private readonly listeners = new Set<() => void>();
  private lowestTempId = 0;
  private readonly saves: SaveQueue<ReviewAction, UpdateEventsAnswer>;
  /** Resolves once this tab's stored actions (and those closed tabs left) are loaded: then `start`. */
  readonly ready: Promise<void>;

  constructor(
    private readonly options: {
      /** Where the waiting actions are stored (`queueKeyPrefix`). */
      storageKey: string;
      transport: QueueTransport;
      /** Who acts: shown as the changer and reviewer until the server answers. */
      me: Reviewer;
      /** Half a frame in seconds: two events closer than this are on the same frame. */
      halfFrame: number;
      onNotice?: (notice: QueueNotice) => void;
      /** A temporary id (an unsaved add) has its server id now. */
      onIdAssigned?: (temporary: number, id: number) => void;
      /** The browser tab (tests play several). */
      tab?: Tab;
    },
  ) {
    this.saves = new SaveQueue<ReviewAction, UpdateEventsAnswer>({
      storageKey: options.storageKey,
      tab: options.tab,
      paused: true,
      hooks: {
        send: (batch) =>
          options.transport.update(
            this.version,
            batch.map((item) => changeOf(item.payload)),
          ),
        onSaved: (batch, answer) => this.acknowledge(batch, answer),
        onConflict: () => this.reload(true),
        onRefused: (batch, error) => this.refuse(batch, error),
        batchSize: marksBatch,
        catchUp: () => this.reload(false),
        failureText,
      },
    });
    this.snapshot = { ...this.saves.status(), revision: 0 };
    this.saves.subscribe(() => this.publish());
    this.ready = this.saves.ready;
  }

  /** The events as the reviewer sees them: the server's, with every waiting action applied. */
  get events(): EventList {
    return this.shown;
  }

  getSnapshot = (): QueueSnapshot => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** A fresh temporary id for an added event (negative, never used before, even by actions from a past visit). */
  newTemporaryId(): number {
    this.lowestTempId -= 1;
    return this.lowestTempId;
  }

  /**
   * Starts from the server's events (after `ready`). Actions left waiting by an earlier visit (a reload, a crash, a
   * closed tab) are taken up again when they still make sense, and sent.
   */
  start(initial: EventsAnswer) {
    this.started = true;
    for (const item of this.saves.pending()) this.lowestTempId = Math.min(this.lowestTempId, item.payload.id);
    const outcome = this.rebase(initial);
    if (outcome.kept > 0) {
      this.notify('info', `${countOf(outcome.kept, 'unsaved change')} from your last visit: saving.`);
    }
    for (const message of outcome.conflicts) this.notify('warning', message);
    this.saves.start();
  }

  /** Applies the action at once and queues it for the server. */
  enqueue(action: ReviewAction, key?: string) {
    if (!this.started) return;
    const item = this.saves.push(action, key);
    applyToList(this.shown, action, this.options.me, new Date(item.createdAt).toISOString());
    this.bump();
  }

  /** The actions not acknowledged yet, oldest first (what "Download unsaved changes" writes). */
  pendingActions(): QueuedAction[] {
    return this.saves.pending().map(({ key, payload, createdAt }) => ({ key, action: payload, createdAt }));
  }

  /** Tries again now (the network came back, or the user asked). */
  retryNow() {
    this.saves.retryNow();
  }

  /** Reads the run's events again (new suggestions: a model was trained), keeping what waits on top. */
  refresh() {
    if (this.started) void this.reload(false).catch(() => {});
  }

  stop() {
    this.started = false;
    this.saves.dispose();
  }

  /** The server has the batch: its answer becomes the known state of those events. */
  private acknowledge(batch: readonly Item[], answer: UpdateEventsAnswer) {
    const marksOnly = batch.every((item) => item.payload.kind === 'review');
    const touched = new Set<number>();
    for (const event of answer.events) {
      this.server.set(event);
      touched.add(event.id);
    }
    let added = 0;
    for (const { payload: action } of batch) {
      if (action.kind === 'delete') {
        this.server.remove(action.id);
        touched.add(action.id);
      } else if (action.kind === 'add') {
        const id = answer.added_ids[added++];
        if (id === undefined) continue;
        this.shown.remove(action.id);
        this.saves.replace(
          this.saves.pending().map((waiting) => ({ ...waiting, payload: withId(waiting.payload, action.id, id) })),
        );
        this.options.onIdAssigned?.(action.id, id);
        touched.add(id);
      }
    }
    if (batch.some((item) => item.payload.kind === 'accept-all')) {
      this.notify('info', `${countOf(answer.accepted, 'suggestion')} accepted in bulk.`);
    }
    if (marksOnly) {
      // Marks leave the version alone; a different one means someone else saved meanwhile: catch up with them.
      if (answer.version !== this.version) this.saves.owe();
    } else this.version = answer.version;
    for (const id of touched) this.reshow(id);
    this.bump();
  }

  /** The server refused the batch for good (400, 403, 404): say why, and reload what the server has. */
  private refuse(batch: readonly Item[], error: unknown) {
    const what = batch.length === 1 ? describeAction(batch[0]!.payload) : `${batch.length} changes`;
    this.notify('error', `${what} could not be saved: ${errorMessage(error)}`);
    this.saves.owe();
  }

  /** Reloads the run's events and lays the waiting actions on top again (after a 409, a refusal, or others' saves). */
  private async reload(afterConflict: boolean) {
    const fresh = await this.options.transport.fetchAll();
    const outcome = this.rebase(fresh);
    if (afterConflict && outcome.kept > 0) {
      this.notify(
        'info',
        `Someone else saved changes to this run; your ${outcome.kept === 1 ? 'change was' : `${outcome.kept} changes were`} applied on top of theirs.`,
      );
    }
    for (const message of outcome.conflicts) this.notify('warning', message);
  }

  /** The server's events as `fresh`, the waiting actions that still make sense on top: returns what became of them. */
  private rebase(fresh: EventsAnswer): { kept: number; conflicts: string[] } {
    this.server = new EventList(fresh.events);
    this.version = fresh.version;
    const shown = this.server.clone();
    const kept: Item[] = [];
    const conflicts: string[] = [];
    let changes = 0;
    for (const item of this.saves.pending()) {
      const check = checkAction(item.payload, shown, this.options.halfFrame);
      if (check.result === 'conflict') conflicts.push(check.message);
      if (check.result !== 'apply') continue;
      kept.push(item);
      if (item.payload.kind !== 'review') changes++;
      applyToList(shown, item.payload, this.options.me, new Date(item.createdAt).toISOString());
    }
    this.saves.replace(kept);
    this.shown = shown;
    this.bump();
    return { kept: changes, conflicts };
  }

  /** One event as shown: the server's, with the waiting actions on it applied. */
  private reshow(id: number) {
    let event = this.server.get(id);
    let exists = event !== undefined;
    for (const { payload: action, createdAt } of this.saves.pending()) {
      if (isSuggestionAction(action)) {
        // An acceptance waiting for the server is laid on the event as it is now.
        if (!event || (action.kind === 'accept' ? action.id !== id : !action.ids.includes(id))) continue;
        const one = new Map([[id, event]]);
        applySuggestion(
          { get: (key) => one.get(key), set: (changed) => one.set(changed.id, changed) },
          action,
          this.options.me,
          new Date(createdAt).toISOString(),
        );
        event = one.get(id);
        continue;
      }
      if (action.id !== id) continue;
      const next = applyAction(event, action, this.options.me, new Date(createdAt).toISOString());
      event = next ?? undefined;
      exists = next !== null;
    }
    if (exists && event) this.shown.set(event);
    else this.shown.remove(id);
  }

  private notify(tone: QueueNotice['tone'], message: string) {
    this.options.onNotice?.({ tone, message });
  }

  private bump() {
    this.revision++;
    this.publish();
  }

  private publish() {
    const status = this.saves.status();
    const previous = this.snapshot;
    const keys = Object.keys(status) as (keyof SaveStatus)[];
    if (previous.revision === this.revision && keys.every((key) => previous[key] === status[key])) return;
    this.snapshot = { ...status, revision: this.revision };
    for (const listener of this.listeners) listener();
  }
}

/** A review mark travels with the marks right after it (up to MARKS_PER_CALL); any other action alone. */
function marksBatch(pending: readonly Item[]): number {
  if (pending[0]?.payload.kind !== 'review') return 1;
  let size = 1;
  while (size < pending.length && size < MARKS_PER_CALL && pending[size]!.payload.kind === 'review') size++;
  return size;
}

function failureText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return 'Your session has ended: sign in again to save.';
    return `The server answered ${error.status}.`;
  }
  return 'No connection to the server.';
}
