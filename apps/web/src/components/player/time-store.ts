import { useSyncExternalStore } from 'react';

/**
 * A time (seconds) as a tiny external store: the player publishes the shown frame's time on every frame while
 * playing, and only the parts that show it (a cursor, a clock, the active ROI) re-render, not the whole page.
 */
export interface TimeSource {
  get(): number;
  subscribe(listener: () => void): () => void;
}

export interface TimeStore extends TimeSource {
  set(time: number): void;
}

export function createTimeStore(initial = 0): TimeStore {
  let time = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => time,
    set(next) {
      if (next === time) return;
      time = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The source's time, re-rendering the caller on each change. */
export function useTime(source: TimeSource): number {
  return useSyncExternalStore(source.subscribe, source.get, source.get);
}
