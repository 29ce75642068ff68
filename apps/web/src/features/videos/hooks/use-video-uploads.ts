import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { DetailedError, Upload as TusUpload } from 'tus-js-client';
import { projectKeys } from '@/features/projects/api';
import { subjectKeys } from '@/features/subjects/api';
import { API_BASE, ApiError, refreshTokens, requestHeaders, requireParam, uploadWithProgress } from '@/lib/api-client';
import { errorMessage } from '@/lib/errors';
import { type Video, videoKeys } from '../api';

/** Files above this size go through the resumable tus endpoint; smaller ones use one multipart POST. */
export const RESUMABLE_THRESHOLD = 50 * 1024 * 1024;
export const TUS_CHUNK_SIZE = 16 * 1024 * 1024;
export const VIDEO_EXTENSIONS = ['.mp4', '.mov', '.avi', '.mkv', '.wmv', '.flv', '.m4v', '.webm'];

export type UploadItem = {
  id: string;
  file: File;
  name: string;
  loaded: number;
  total: number;
  resumable: boolean;
  status: 'uploading' | 'done' | 'error' | 'cancelled';
  error?: string;
  /** The video the upload became: its row's status is what the card shows once the bytes are in. */
  videoUuid?: string;
  /** The server refused the file itself (not a video, too big…): sending it again cannot succeed. */
  refused?: boolean;
};

/**
 * Whether a failed upload was refused for what the file is, so a retry of the same file cannot succeed: a 4xx other
 * than the ones that pass (401 expired token, 408/429 slow down, 409/423 busy upload).
 */
export function isRefusal(status: number): boolean {
  return status >= 400 && status < 500 && ![401, 408, 409, 423, 429].includes(status);
}

/** The HTTP status of a failed upload, multipart (ApiError) or resumable (tus's DetailedError); 0 when none. */
function failureStatus(error: unknown): number {
  if (error instanceof ApiError) return error.status;
  if (error instanceof DetailedError) return error.originalResponse?.getStatus() ?? 0;
  return 0;
}

/** A tus failure's message: the server's `errors` body when it sent one, else the library's text. */
function failureMessage(error: unknown): string {
  if (error instanceof DetailedError) {
    const body = error.originalResponse?.getBody();
    if (body) {
      try {
        return errorMessage(new ApiError(error.originalResponse!.getStatus(), JSON.parse(body), 'PATCH', 'uploads/'));
      } catch {
        // Not JSON: the library's own message says more.
      }
    }
  }
  return errorMessage(error);
}

export function isVideoFile(file: File): boolean {
  const lower = file.name.toLowerCase();
  return file.type.startsWith('video/') || VIDEO_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

/** The display name of an upload: the file name without its extension. */
export function nameFromFile(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return (dot > 0 ? filename.slice(0, dot) : filename).trim() || filename;
}

let uploadSeq = 0;

export function useVideoUploads(projectUuid: string, subjectUuid: string) {
  const queryClient = useQueryClient();
  const [items, setItems] = useState<UploadItem[]>([]);
  const cancels = useRef(new Map<string, () => void>());

  useEffect(
    () => () => {
      for (const cancel of cancels.current.values()) cancel();
    },
    [],
  );

  const patch = useCallback((id: string, change: Partial<UploadItem>) => {
    setItems((list) => list.map((item) => (item.id === id ? { ...item, ...change } : item)));
  }, []);

  const refresh = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: videoKeys.all });
    void queryClient.invalidateQueries({ queryKey: subjectKeys.all });
    void queryClient.invalidateQueries({ queryKey: projectKeys.detail(projectUuid) });
  }, [queryClient, projectUuid]);

  const start = useCallback(
    (file: File) => {
      requireParam('projectUuid', projectUuid, 'videosCreate');
      requireParam('subjectUuid', subjectUuid, 'videosCreate');
      const id = `upload-${++uploadSeq}`;
      const name = nameFromFile(file.name);
      const resumable = file.size > RESUMABLE_THRESHOLD;
      setItems((list) => [...list, { id, file, name, loaded: 0, total: file.size, resumable, status: 'uploading' }]);

      const onProgress = (loaded: number, total: number) => patch(id, { loaded, total });
      const onDone = (videoUuid: string | undefined) => {
        cancels.current.delete(id);
        patch(id, { status: 'done', loaded: file.size, videoUuid });
        refresh();
      };
      const onFail = (error: unknown) => {
        cancels.current.delete(id);
        if (error instanceof DOMException && error.name === 'AbortError') return;
        const refused = isRefusal(failureStatus(error));
        // A refused file is the user's input, answered on the card; anything else is worth a trace.
        if (!refused) console.error(error);
        const message = failureMessage(error);
        patch(id, { status: 'error', error: message, refused });
        toast.error(`${file.name}: ${message}`);
      };

      if (!resumable) {
        const controller = new AbortController();
        cancels.current.set(id, () => controller.abort());
        const form = new FormData();
        form.append('name', name);
        form.append('file', file);
        uploadWithProgress<Video>(
          `projects/${projectUuid}/subjects/${subjectUuid}/videos/`,
          form,
          onProgress,
          controller.signal,
        ).then((video) => onDone(video.video_uuid), onFail);
        return;
      }

      const upload = new TusUpload(file, {
        endpoint: `${API_BASE}/uploads/`,
        chunkSize: TUS_CHUNK_SIZE,
        retryDelays: [0, 1000, 3000, 5000, 10000],
        metadata: { project_uuid: projectUuid, subject_uuid: subjectUuid, filename: file.name, name },
        // Resume an interrupted upload of the same file (fingerprint kept in local storage).
        storeFingerprintForResuming: true,
        removeFingerprintOnSuccess: true,
        onBeforeRequest: (req) => {
          requestHeaders({ auth: true }).forEach((value, key) => {
            if (key.toLowerCase() !== 'accept') req.setHeader(key, value);
          });
        },
        // Network drops and server hiccups retry; an expired token is refreshed first; bad input does not.
        onShouldRetry: (err) => {
          const status = err.originalResponse?.getStatus() ?? 0;
          if (status === 401) {
            void refreshTokens();
            return true;
          }
          return status === 0 || status >= 500 || status === 409 || status === 423;
        },
        onProgress: (loaded, total) => onProgress(loaded, total),
        onSuccess: ({ lastResponse }) => onDone(lastResponse.getHeader('x-video-uuid') || upload.url?.split('/').pop()),
        onError: onFail,
      });
      cancels.current.set(id, () => void upload.abort());
      upload
        .findPreviousUploads()
        .then((previous) => {
          if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
          upload.start();
        })
        .catch(() => upload.start());
    },
    [projectUuid, subjectUuid, patch, refresh],
  );

  const cancel = useCallback(
    (id: string) => {
      cancels.current.get(id)?.();
      cancels.current.delete(id);
      patch(id, { status: 'cancelled' });
    },
    [patch],
  );

  const dismiss = useCallback((id: string) => setItems((list) => list.filter((item) => item.id !== id)), []);
  const retry = useCallback(
    (id: string) => {
      const item = items.find((i) => i.id === id);
      if (!item) return;
      dismiss(id);
      start(item.file);
    },
    [items, dismiss, start],
  );

  const clearFinished = useCallback(() => setItems((list) => list.filter((item) => item.status === 'uploading')), []);

  return { items, start, cancel, dismiss, retry, clearFinished };
}
