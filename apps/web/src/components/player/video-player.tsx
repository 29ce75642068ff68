import { Film, TriangleAlert } from 'lucide-react';
import { type KeyboardEventHandler, type ReactNode, useCallback } from 'react';
import { cn } from '@/lib/utils';
import { type PlayerController, shownStyle, usePlayerState } from './player-controller';

/** What the player shows: a video's playable copy and its picture size. */
export interface PlayerSource {
  name: string;
  /** The playable file's URL; null or absent while there is none (see `unavailable`). */
  streamUrl: string | null | undefined;
  /** Why there is nothing to play yet: a copy being prepared (its progress, 0–1, when known) or one that failed. */
  unavailable?: { kind: 'preparing'; progress: number | null } | { kind: 'failed'; reason: string | null } | null;
  posterUrl?: string | null | undefined;
  width: number | null | undefined;
  height: number | null | undefined;
}

/**
 * The app's one video player shell: the picture (sized to the video's own ratio, so that `overlay` — ROIs, marks —
 * lies exactly over it), the elements the `player` controller drives, and a control area below (`controls`).
 * `marks` are drawings over the picture that take no pointer events (the pose overlay): clicks reach the picture.
 * It listens to no key: a page that wants keys passes `onKeyDown`, which makes the player a focusable application.
 * With `standby`, a second, hidden element preloads the next clip (see PlayerController.preloadClip).
 */
export function VideoPlayer({
  player,
  source,
  overlay,
  marks,
  controls,
  standby = false,
  onKeyDown,
  onPictureClick,
  maxHeight = '60vh',
  className,
}: {
  player: PlayerController;
  source: PlayerSource;
  overlay?: ReactNode;
  marks?: ReactNode;
  controls?: ReactNode;
  standby?: boolean;
  onKeyDown?: KeyboardEventHandler<HTMLDivElement>;
  /** A click on the picture (when no overlay takes it). Default: play/pause. */
  onPictureClick?: () => void;
  /** The picture's largest height (CSS). */
  maxHeight?: string;
  className?: string;
}) {
  const { shown, error } = usePlayerState(player);
  const width = source.width && source.width > 0 ? source.width : 16;
  const height = source.height && source.height > 0 ? source.height : 9;
  const ratio = width / height;
  const attachFirst = useCallback((element: HTMLVideoElement | null) => player.attach(0, element), [player]);
  const attachSecond = useCallback((element: HTMLVideoElement | null) => player.attach(1, element), [player]);

  const playable = Boolean(source.streamUrl);
  const clickPicture = onPictureClick ?? (() => player.togglePlay());
  const element = (slot: 0 | 1) => {
    const onScreen = slot === shown;
    return (
      <video
        key={slot}
        ref={slot === 0 ? attachFirst : attachSecond}
        src={source.streamUrl ?? undefined}
        poster={slot === 0 ? (source.posterUrl ?? undefined) : undefined}
        preload="auto"
        playsInline
        muted
        // Both stay rendered (a hidden element would not decode its preloaded frame); the standby sits beneath.
        className={cn('absolute inset-0 size-full object-contain', !onScreen && 'pointer-events-none')}
        // The controller swaps these two itself at the moment it swaps the elements (see shownStyle).
        style={shownStyle(onScreen)}
        onClick={clickPicture}
        data-testid={onScreen ? 'video-element' : 'video-standby'}
        aria-hidden={onScreen ? undefined : true}
      />
    );
  };

  const label = `Player: ${source.name}`;
  const frame = cn(
    'overflow-hidden rounded-xl border bg-card outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
    className,
  );
  const body = (
    <>
      <div className="bg-black">
        <div
          className="relative mx-auto w-full"
          style={{ aspectRatio: `${width} / ${height}`, maxWidth: `calc(${maxHeight} * ${ratio})` }}
        >
          {playable ? (
            <>
              {element(0)}
              {standby ? element(1) : null}
              {marks ? <div className="pointer-events-none absolute inset-0 z-[2]">{marks}</div> : null}
              {overlay ? <div className="absolute inset-0 z-[2]">{overlay}</div> : null}
            </>
          ) : (
            <UnavailableMessage unavailable={source.unavailable} />
          )}
          {playable && error ? (
            <PictureMessage icon={<TriangleAlert aria-hidden="true" />} testId="player-error">
              {error}
            </PictureMessage>
          ) : null}
        </div>
      </div>
      {controls}
    </>
  );

  return onKeyDown ? (
    <div
      role="application"
      aria-roledescription="video player"
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the page gave the player keys (Space, arrows).
      tabIndex={0}
      onKeyDown={onKeyDown}
      className={frame}
    >
      {body}
    </div>
  ) : (
    <section aria-label={label} className={frame}>
      {body}
    </section>
  );
}

/** The progress as a whole percentage that reaches 100 only when done. */
export function percent(progress: number): number {
  return Math.min(99, Math.max(0, Math.floor(progress * 100)));
}

function UnavailableMessage({ unavailable }: { unavailable: PlayerSource['unavailable'] }) {
  if (unavailable?.kind === 'failed') {
    return (
      <PictureMessage icon={<TriangleAlert aria-hidden="true" />} testId="player-unavailable">
        The playable copy of this video could not be made{unavailable.reason ? `: ${unavailable.reason}` : '.'} Analyses
        still read the original.
      </PictureMessage>
    );
  }
  const progress = unavailable?.kind === 'preparing' ? unavailable.progress : null;
  return (
    <PictureMessage icon={<Film aria-hidden="true" />} testId="player-unavailable">
      <span className="block font-medium">
        Preparing the playable copy…{progress === null ? '' : ` ${percent(progress)}%`}
      </span>
      <span className="mt-1 block opacity-80">
        This video does not play in every browser as it is. The player opens when the copy is ready; analyses can start
        now.
      </span>
      {progress === null ? null : (
        <span
          role="progressbar"
          aria-label="Playable copy"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent(progress)}
          className="mx-auto mt-3 block h-1.5 w-48 overflow-hidden rounded-full bg-white/20"
        >
          <span className="block h-full bg-white" style={{ width: `${percent(progress)}%` }} />
        </span>
      )}
    </PictureMessage>
  );
}

function PictureMessage({ icon, children, testId }: { icon: ReactNode; children: ReactNode; testId: string }) {
  return (
    <div
      role="status"
      data-testid={testId}
      className="absolute inset-0 z-[3] flex flex-col items-center justify-center gap-2 bg-black/80 p-6 text-center text-sm text-white [&_svg]:size-6 [&_svg]:opacity-80"
    >
      {icon}
      <div className="max-w-sm">{children}</div>
    </div>
  );
}
