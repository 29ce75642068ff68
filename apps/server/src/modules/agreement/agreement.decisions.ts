/**
 * Agreement on decisions (ADR 014): when both sides are scorings of one run — its consensus (the run's events as
 * reviewed, every label) or a blind scorer's — each detected event is kept or discarded by each side, and Cohen's
 * kappa of that 2×2 table is the inter-rater reliability of the review itself (the engine's kappa).
 */
import type { AppContext } from '../../context.js';
import { keptByEvent, resolvers } from '../scorers/scorer.consensus.js';
import type { AgreementBody, ScoringInput } from './agreement.schemas.js';
import { cohensKappa } from './engine/interval-agreement.js';

/** Differences one answer lists (the counts above cover them all). */
export const MAX_DIFFERENCES = 1000;

function sideOfRun(input: ScoringInput): number | 'consensus' | null {
  if (input.kind === 'scorer') return input.user_id ?? null;
  if (input.kind === 'run_reviewed' && input.label === undefined) return 'consensus';
  return null;
}

export async function decisionAgreement(context: AppContext, body: AgreementBody) {
  const reference = sideOfRun(body.reference);
  const candidate = sideOfRun(body.candidate);
  const run = body.reference.analysis_uuid;
  if (reference === null || candidate === null || !run || run !== body.candidate.analysis_uuid) return null;
  const [a, b] = await Promise.all([keptByEvent(context.db, run, reference), keptByEvent(context.db, run, candidate)]);
  const table = { both: 0, reference_only: 0, candidate_only: 0, neither: 0 };
  const differences: { event_id: number; time: number; reference_kept: boolean; candidate_kept: boolean }[] = [];
  // An event one side no longer has (deleted from the consensus) counts as discarded there.
  for (const id of new Set([...a.keys(), ...b.keys()])) {
    const keptA = a.get(id)?.kept ?? false;
    const keptB = b.get(id)?.kept ?? false;
    if (keptA && keptB) table.both++;
    else if (keptA) table.reference_only++;
    else if (keptB) table.candidate_only++;
    else table.neither++;
    if (keptA !== keptB) {
      const time = (a.get(id) ?? b.get(id))!.time;
      differences.push({ event_id: id, time, reference_kept: keptA, candidate_kept: keptB });
    }
  }
  differences.sort((x, y) => x.time - y.time || x.event_id - y.event_id);
  const shown = differences.slice(0, MAX_DIFFERENCES);
  const settled = await resolvers(
    context.db,
    run,
    shown.map((d) => d.event_id),
  );
  const total = table.both + table.reference_only + table.candidate_only + table.neither;
  return {
    both_kept: table.both,
    reference_only_kept: table.reference_only,
    candidate_only_kept: table.candidate_only,
    both_discarded: table.neither,
    percent_agreement: total > 0 ? ((table.both + table.neither) / total) * 100 : null,
    kappa: cohensKappa(table),
    differences: shown.map((d) => ({ ...d, resolved_by: settled.get(d.event_id) ?? null })),
  };
}
