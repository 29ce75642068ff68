import { Toaster as Sonner } from 'sonner';
import { useTheme } from '@/features/theme/theme-provider';

/** Toasts per spec §9: top-center, 4 seconds, at most 3 visible. */
export const TOAST_DURATION = 4000;
export const TOAST_VISIBLE = 3;

export function Toaster() {
  const { resolvedTheme } = useTheme();
  return (
    <Sonner
      theme={resolvedTheme}
      position="top-center"
      duration={TOAST_DURATION}
      visibleToasts={TOAST_VISIBLE}
      richColors
      closeButton
      toastOptions={{ classNames: { title: 'whitespace-pre-line' } }}
    />
  );
}
