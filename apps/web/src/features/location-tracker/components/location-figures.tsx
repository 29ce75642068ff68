import { useQuery } from '@tanstack/react-query';
import { ServerFigure } from '@/components/figure/server-figure';
import type { AnalysisRun, VideoRef } from '@/features/analysis/api';
import { type FigureName, figureApi, figureQueries } from '../figures';

const FIGURES: { name: FigureName; title: string; caption: string }[] = [
  { name: 'track', title: 'Track', caption: 'The path of the positions (white dot: start, black: end).' },
  { name: 'heatmap', title: 'Heat map', caption: 'Time spent per spatial bin.' },
];

/** The run's figures for a paper, each shown and offered as PNG and SVG. */
export function LocationFigures({ videoRef, run }: { videoRef: VideoRef; run: AnalysisRun }) {
  return (
    <section aria-labelledby="lt-figures" className="grid grid-cols-1 gap-2">
      <h3 id="lt-figures" className="font-medium text-sm">
        Figures
      </h3>
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
        {FIGURES.map((figure) => (
          <Figure key={figure.name} videoRef={videoRef} run={run} {...figure} />
        ))}
      </div>
    </section>
  );
}

function Figure({
  videoRef,
  run,
  name,
  title,
  caption,
}: {
  videoRef: VideoRef;
  run: AnalysisRun;
  name: FigureName;
  title: string;
  caption: string;
}) {
  const svg = useQuery(figureQueries.svg(videoRef, run.analysis_uuid, name));
  return (
    <ServerFigure
      title={title}
      alt={`${title} of this run`}
      caption={caption}
      svg={svg}
      onDownload={(format) => figureApi.download(videoRef, run.analysis_uuid, name, format)}
      testId={`figure-${name}`}
    />
  );
}
