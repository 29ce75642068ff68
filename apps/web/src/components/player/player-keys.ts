import type { KeyboardEvent } from 'react';
import type { PlayerController } from './player-controller';

/**
 * The usual keys of a free-playing player, for pages that want them (the player itself listens to no key):
 * Space/k play or pause, ←/→ (or , and .) step a frame, Shift+←/→ jump a second, Home goes to the start.
 * Keys typed into the player's own controls are left to them.
 */
export function transportKeys(player: PlayerController) {
  return (event: KeyboardEvent<HTMLElement>) => {
    if ((event.target as HTMLElement).closest('select, [role="slider"], button, input')) return;
    const second = Math.round(player.fps);
    if (event.key === ' ' || event.key === 'k') {
      event.preventDefault();
      player.togglePlay();
    } else if (event.key === 'ArrowRight' || event.key === '.') {
      event.preventDefault();
      void player.step(event.shiftKey ? second : 1);
    } else if (event.key === 'ArrowLeft' || event.key === ',') {
      event.preventDefault();
      void player.step(event.shiftKey ? -second : -1);
    } else if (event.key === 'Home') {
      event.preventDefault();
      void player.seekFrame(0);
    }
  };
}
