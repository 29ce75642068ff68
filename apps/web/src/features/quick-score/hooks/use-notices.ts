import { useCallback, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { QueueNotice } from '../action-queue';
import type { ShownNotice } from '../components/event-panel';

/** The queue's messages: a toast each, and the last three kept on the page until dismissed. */
export function useNotices() {
  const [notices, setNotices] = useState<ShownNotice[]>([]);
  const count = useRef(0);
  const onNotice = useCallback((notice: QueueNotice) => {
    toast[notice.tone](notice.message);
    count.current += 1;
    const id = count.current;
    setNotices((shown) => [{ ...notice, id }, ...shown].slice(0, 3));
  }, []);
  const dismissNotice = useCallback((id: number) => setNotices((shown) => shown.filter((n) => n.id !== id)), []);
  return { notices, onNotice, dismissNotice };
}
