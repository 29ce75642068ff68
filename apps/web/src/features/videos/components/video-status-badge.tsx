import { CircleAlert, CircleCheck, Loader2, Upload } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import type { VideoStatus } from '../api';

const LABELS: Record<VideoStatus, string> = {
  uploading: 'Uploading',
  processing: 'Processing',
  ready: 'Ready',
  failed: 'Failed',
};

export function VideoStatusBadge({ status, title }: { status: VideoStatus; title?: string }) {
  const variant = status === 'ready' ? 'success' : status === 'failed' ? 'destructive' : 'secondary';
  const Icon =
    status === 'ready' ? CircleCheck : status === 'failed' ? CircleAlert : status === 'uploading' ? Upload : Loader2;
  return (
    <Badge variant={variant} title={title} data-status={status}>
      <Icon className={status === 'processing' ? 'animate-spin' : undefined} aria-hidden="true" />
      {LABELS[status]}
    </Badge>
  );
}
