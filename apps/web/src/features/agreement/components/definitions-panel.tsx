import { DEFINITIONS, RULES } from '../definitions';

/** The definitions of ADR 010, word for word, and how their open points are settled. */
export function DefinitionsPanel({ calibration = false }: { calibration?: boolean }) {
  const shown = calibration
    ? [DEFINITIONS.scoring, DEFINITIONS.calibration]
    : [DEFINITIONS.scoring, DEFINITIONS.events, DEFINITIONS.intervals];
  return (
    <details className="rounded-lg border px-3 py-2 text-sm" data-testid="definitions">
      <summary className="cursor-pointer font-medium">Definitions</summary>
      <div className="mt-2 grid grid-cols-1 gap-2 text-muted-foreground">
        {shown.map((text) => (
          <p key={text}>{text}</p>
        ))}
        <ul className="list-disc pl-5 text-xs">
          {Object.values(RULES).map((rule) => (
            <li key={rule}>{rule}</li>
          ))}
        </ul>
      </div>
    </details>
  );
}
