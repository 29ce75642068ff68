import { useQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import type { AnalysisRun, VideoRef } from '@/features/analysis/api';
import { errorMessage } from '@/lib/errors';
import { type FigureFormat, type FigureName, figureApi, figureQueries } from '../figures';

const FIGURES: { name: FigureName; title: string; caption: string }[] = [
  { name: 'track', title: 'Track', caption: 'The path of the positions (white dot: start, black: end).' },
  { name: 'heatmap', title: 'Heat map', caption: 'Time spent per spatial bin.' },
];

/** A blob as a URL for an <img>, released when the blob changes or the component goes. */
function useObjectUrl(blob: Blob | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) return;
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return blob ? url : null;
}

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
  const url = useObjectUrl(svg.data);
  const [busy, setBusy] = useState(false);
  const download = async (format: FigureFormat) => {
    setBusy(true);
    try {
      await figureApi.download(videoRef, run.analysis_uuid, name, format);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <figure aria-label={`${title} figure`} className="grid gap-2" data-testid={`figure-${name}`}>
      {url ? (
        <img src={url} alt={`${title} of this run`} className="w-full rounded-md border" />
      ) : svg.isError ? (
        <p className="text-destructive text-sm">The figure could not be drawn: {errorMessage(svg.error)}</p>
      ) : (
        <Skeleton className="aspect-[4/3] w-full" />
      )}
      <figcaption className="text-muted-foreground text-xs">
        <span className="font-medium text-foreground">{title}.</span> {caption}
      </figcaption>
      <div className="flex flex-wrap gap-2">
        {(['png', 'svg'] as const).map((format) => (
          <Button key={format} variant="outline" size="sm" disabled={busy} onClick={() => void download(format)}>
            <Download aria-hidden="true" />
            Download {format.toUpperCase()}
          </Button>
        ))}
      </div>
    </figure>
  );
}
