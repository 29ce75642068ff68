/**
 * What an `update-events/` change may not do, in the words both the consensus (analysis.events.ts) and a blind
 * scorer's own scoring (scorers/scorer.service.ts) answer with: one place for the checks and their messages.
 */

/** The problem with an event at `time` of a video `duration` seconds long, or null when it fits. */
export function eventTimeProblem(index: number, time: number, duration: number): string | null {
  if (time < 0) return `Change ${index}: an event cannot be before 0 s.`;
  if (time > duration + 1e-9) return `Change ${index}: ${time} s is after the end of the video.`;
  return null;
}

export const noSuchEvent = (index: number, id: number) => `Change ${index}: event ${id} does not exist.`;

export const eventAlreadyThere = (index: number, time: number) =>
  `Change ${index}: there is already an event at ${time} s.`;

/** A checker that records each problem in `problems` and says whether the time fits. */
export function timeChecker(problems: string[], duration: number) {
  return (index: number, time: number) => {
    const problem = eventTimeProblem(index, time, duration);
    if (problem) problems.push(problem);
    return problem === null;
  };
}
