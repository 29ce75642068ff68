import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState, useSyncExternalStore } from 'react';
import type { PlayerController } from '@/components/player/player-controller';
import { errorMessage } from '@/lib/errors';
import { type PoseVideoRef, poseApi, poseQueries } from '../api';
import { PoseLayer } from '../components/pose-layer';
import { PosePanel } from '../components/pose-panel';
import { PoseWindowCache } from '../pose-windows';

/** DeepLabCut's own default `pcutoff`. */
export const DEFAULT_CUTOFF = 0.6;

/** The video a pose overlay is for: where its sets live and its picture size. */
export interface PoseVideo {
  subject_uuid: string;
  video_uuid: string;
  width: number | null | undefined;
  height: number | null | undefined;
}

/**
 * The pose overlay of a page's player: `layer` goes into VideoPlayer's `marks` and `panel` beside the player. Both
 * are null while the video has no pose set, so pages without pose look as before. The Annotator, Quick Score and
 * the subject's player all use this one hook.
 */
export function usePoseOverlay({
  projectUuid,
  video,
  player,
}: {
  projectUuid: string;
  video: PoseVideo;
  player: PlayerController;
}): { layer: ReactNode; panel: ReactNode } {
  const ref: PoseVideoRef = useMemo(
    () => ({ projectUuid, subjectUuid: video.subject_uuid, videoUuid: video.video_uuid }),
    [projectUuid, video.subject_uuid, video.video_uuid],
  );
  const sets = useQuery(poseQueries.sets(ref)).data?.results;
  const [chosen, setChosen] = useState<string | null>(null);
  const [shown, setShown] = useState(true);
  const [cutoff, setCutoff] = useState(DEFAULT_CUTOFF);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  // The latest set unless one was chosen (and still exists).
  const set = sets?.find((item) => item.pose_uuid === chosen) ?? sets?.at(-1) ?? null;
  const poseUuid = set?.pose_uuid ?? null;
  const frameCount = set?.frame_count ?? 0;
  // One cache per set: windows of another set's frames are no use.
  const cache = useMemo(
    () =>
      poseUuid
        ? new PoseWindowCache(
            (start, count) => poseApi.frames(ref, poseUuid, start, count).then((body) => body.frames),
            frameCount,
          )
        : null,
    [ref, poseUuid, frameCount],
  );
  const failure = useSyncExternalStore(cache?.subscribe ?? noSubscribe, () => cache?.error ?? null);
  const view = useMemo(() => ({ cutoff, hidden }), [cutoff, hidden]);

  if (!set || !cache) return { layer: null, panel: null };
  const picture = video.width && video.height ? { width: video.width, height: video.height } : null;
  return {
    layer:
      shown && picture ? (
        <PoseLayer picture={picture} set={set} cache={cache} clock={player.clock} fps={player.fps} view={view} />
      ) : null,
    panel: (
      <PosePanel
        sets={sets ?? []}
        set={set}
        onSelect={setChosen}
        shown={shown}
        onShown={setShown}
        cutoff={cutoff}
        onCutoff={setCutoff}
        hidden={hidden}
        onTogglePart={(part) =>
          setHidden((current) => {
            const next = new Set(current);
            if (!next.delete(part)) next.add(part);
            return next;
          })
        }
        status={failure ? `The pose frames could not be loaded: ${errorMessage(failure)}` : null}
      />
    ),
  };
}

const noSubscribe = () => () => {};
