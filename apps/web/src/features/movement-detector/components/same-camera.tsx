import { useQuery } from '@tanstack/react-query';
import { Camera } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { NativeSelect } from '@/components/ui/select';
import { analysisQueries } from '@/features/analysis/api';
import { type Video, videoQueries } from '@/features/videos/api';
import { formatDate } from '@/lib/format';
import { roisForVideo, sameCameraOffers } from '../context-runs';
import type { Roi } from '../rois';

/**
 * "Same camera": the regions of the last run on each of the subject's other videos with this picture size, to reuse
 * instead of drawing them again. Shown only when there is one.
 */
export function SameCamera({
  projectUuid,
  video,
  onUse,
}: {
  projectUuid: string;
  video: Video;
  onUse: (rois: Roi[], from: string) => void;
}) {
  const runs = useQuery(
    analysisQueries.list(projectUuid, { subject: video.subject_uuid, kind: 'movement_detection', page_size: 100 }),
  );
  // The video picker's list of the subject's videos (same key): names and picture sizes.
  const videos = useQuery(videoQueries.list(projectUuid, video.subject_uuid, { page_size: 500 }));
  const offers = sameCameraOffers(runs.data?.results ?? [], videos.data?.results ?? [], {
    video_uuid: video.video_uuid,
    width: video.width ?? 0,
    height: video.height ?? 0,
  });
  const [chosen, setChosen] = useState('');
  if (offers.length === 0) return null;
  const offer = offers.find((o) => o.videoUuid === chosen) ?? offers[0]!;
  const count = Array.isArray(offer.run.parameters.rois) ? offer.run.parameters.rois.length : 1;

  return (
    <div
      className="flex flex-wrap items-center gap-2 rounded-lg border border-dashed p-3 text-sm"
      data-testid="same-camera"
    >
      <Camera className="size-4 text-muted-foreground" aria-hidden="true" />
      <label htmlFor="md-same-camera">Same camera: regions of</label>
      <NativeSelect
        id="md-same-camera"
        value={offer.videoUuid}
        onChange={(event) => setChosen(event.target.value)}
        className="min-w-56"
      >
        {offers.map((o) => (
          <option key={o.videoUuid} value={o.videoUuid}>
            {o.videoName} · last run {formatDate(o.run.created_at)}
          </option>
        ))}
      </NativeSelect>
      <Button
        variant="outline"
        size="sm"
        onClick={() => onUse(roisForVideo(offer.run.parameters.rois, video.duration_s ?? 0), offer.videoName)}
      >
        Use {count === 1 ? 'its region' : `its ${count} regions`}
      </Button>
    </div>
  );
}
