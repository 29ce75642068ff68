import type { AgreementReport } from '../api';
import { figure } from './agreement-figures';

type Decisions = NonNullable<AgreementReport['decisions']>;

/**
 * Agreement on the review decisions of one run's two scorings (ADR 014): each detected event kept or discarded by
 * each side, and Cohen's kappa of that table.
 */
export function DecisionFiguresView({ decisions }: { decisions: Decisions }) {
  const rows: [string, number][] = [
    ['Kept by both', decisions.both_kept],
    ['Kept by the reference only', decisions.reference_only_kept],
    ['Kept by the candidate only', decisions.candidate_only_kept],
    ['Discarded by both', decisions.both_discarded],
  ];
  return (
    <section aria-labelledby="decision-figures" className="grid grid-cols-1 gap-2" data-testid="decision-figures">
      <h3 id="decision-figures" className="font-medium text-sm">
        Review decisions{' '}
        <span className="font-normal text-muted-foreground">(each detected event kept or discarded)</span>
      </h3>
      <p className="text-sm" data-testid="decision-kappa">
        Cohen’s κ <strong className="tabular-nums">{figure(decisions.kappa)}</strong> · agreement{' '}
        <strong className="tabular-nums">
          {decisions.percent_agreement == null ? '—' : `${figure(decisions.percent_agreement, 1)}%`}
        </strong>
        <span className="block text-muted-foreground text-xs">
          κ: how far the two agree on keeping or discarding beyond what chance gives (1 = always, 0 = as chance).
        </span>
      </p>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
        {rows.map(([name, value]) => (
          <div key={name}>
            <dt className="text-muted-foreground text-xs">{name}</dt>
            <dd className="tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
