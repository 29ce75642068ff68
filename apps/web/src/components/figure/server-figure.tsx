import { Download } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/errors';
import { cn } from '@/lib/utils';

export type FigureFormat = 'png' | 'svg';

/**
 * A blob as a URL for an <img>, released when the blob changes or the component goes. The URL is answered only for
 * the blob it was made from: a figure read again (a new blob, or none while it loads) never shows a released URL,
 * which the browser would fail to load.
 */
function useObjectUrl(blob: Blob | undefined): string | null {
  const [made, setMade] = useState<{ blob: Blob; url: string } | null>(null);
  useEffect(() => {
    if (!blob) return;
    const url = URL.createObjectURL(blob);
    setMade({ blob, url });
    return () => URL.revokeObjectURL(url);
  }, [blob]);
  return made && made.blob === blob ? made.url : null;
}

/**
 * A figure the server draws (a location run's track, a batch's plot of one measure): its SVG shown as an image,
 * a caption, and PNG and SVG downloads under the server's file names.
 */
export function ServerFigure({
  title,
  alt,
  caption,
  svg,
  onDownload,
  testId,
  className,
}: {
  title: string;
  alt: string;
  caption: string;
  /** The SVG to show, as a query gives it. */
  svg: { data: Blob | undefined; isError: boolean; error: unknown };
  onDownload: (format: FigureFormat) => Promise<void>;
  testId?: string;
  className?: string;
}) {
  const url = useObjectUrl(svg.data);
  const [busy, setBusy] = useState(false);
  const download = async (format: FigureFormat) => {
    setBusy(true);
    try {
      await onDownload(format);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <figure aria-label={`${title} figure`} className={cn('grid gap-2', className)} data-testid={testId}>
      {url ? (
        <img src={url} alt={alt} className="w-full rounded-md border" />
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
