import { useSyncExternalStore } from 'react';

/**
 * The player's current time as a tiny external store: the video publishes it on every frame while playing, and
 * only the parts that show it (cursor, clock, active ROI) re-render, not the whole page.
 */
export interface VideoClock {
  get(): number;
  set(time: number): void;
  subscribe(listener: () => void): () => void;
}

export function createVideoClock(initial = 0): VideoClock {
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

export function useClockTime(clock: VideoClock): number {
  return useSyncExternalStore(clock.subscribe, clock.get, clock.get);
}
