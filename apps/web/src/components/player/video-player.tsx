import { Film, TriangleAlert } from 'lucide-react';
import { type KeyboardEventHandler, type ReactNode, useCallback } from 'react';
import { cn } from '@/lib/utils';
import { type PlayerController, shownStyle, usePlayerState } from './player-controller';

/** What the player shows: a video's playable copy and its picture size. */
export interface PlayerSource {
  name: string;
  /** The playable copy's URL; null or absent while it is being prepared. */
  streamUrl: string | null | undefined;
  posterUrl?: string | null | undefined;
  width: number | null | undefined;
  height: number | null | undefined;
}

/**
 * The app's one video player shell: the picture (sized to the video's own ratio, so that `overlay` — ROIs, marks —
 * lies exactly over it), the elements the `player` controller drives, and a control area below (`controls`).
 * It listens to no key: a page that wants keys passes `onKeyDown`, which makes the player a focusable application.
 * With `standby`, a second, hidden element preloads the next clip (see PlayerController.preloadClip).
 */
export function VideoPlayer({
  player,
  source,
  overlay,
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
              {overlay ? <div className="absolute inset-0 z-[2]">{overlay}</div> : null}
            </>
          ) : (
            <PictureMessage icon={<Film aria-hidden="true" />} testId="player-unavailable">
              The playable copy of this video is being prepared. The player opens when it is ready.
            </PictureMessage>
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

function PictureMessage({ icon, children, testId }: { icon: ReactNode; children: ReactNode; testId: string }) {
  return (
    <div
      role="status"
      data-testid={testId}
      className="absolute inset-0 z-[3] flex flex-col items-center justify-center gap-2 bg-black/80 p-6 text-center text-sm text-white [&_svg]:size-6 [&_svg]:opacity-80"
    >
      {icon}
      <p className="max-w-sm">{children}</p>
    </div>
  );
}
