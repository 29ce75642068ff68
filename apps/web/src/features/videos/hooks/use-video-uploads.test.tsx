import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '@/lib/query-client';
import { tokens } from '@/lib/tokens';
import { nameFromFile, RESUMABLE_THRESHOLD, useVideoUploads } from './use-video-uploads';

const tus = vi.hoisted(() => ({
  instances: [] as { file: File; options: Record<string, unknown>; started: boolean }[],
}));

vi.mock('tus-js-client', () => ({
  DetailedError: class extends Error {},
  Upload: class {
    file: File;
    options: Record<string, unknown>;
    started = false;
    constructor(file: File, options: Record<string, unknown>) {
      this.file = file;
      this.options = options;
      tus.instances.push(this);
    }
    findPreviousUploads() {
      return Promise.resolve([]);
    }
    resumeFromPreviousUpload() {}
    start() {
      this.started = true;
    }
    abort() {
      return Promise.resolve();
    }
  },
}));

/** A minimal XMLHttpRequest that records the request and answers 201 with upload progress. */
class FakeXhr {
  static last: FakeXhr | null = null;
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = {
    onprogress: null,
  };
  headers: Record<string, string> = {};
  method = '';
  url = '';
  body: FormData | null = null;
  status = 0;
  responseText = '';
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(key: string, value: string) {
    this.headers[key.toLowerCase()] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.last = this;
  }
  abort() {
    this.onabort?.();
  }
  respond(status: number, body: unknown) {
    this.upload.onprogress?.({ lengthComputable: true, loaded: 5, total: 10 });
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

const wrapper = ({ children }: { children: ReactNode }) => (
  <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
);

function fileOfSize(name: string, size: number): File {
  const file = new File(['x'], name, { type: 'video/mp4' });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

describe('video uploads', () => {
  beforeEach(() => {
    tus.instances.length = 0;
    FakeXhr.last = null;
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    tokens.set('ACCESS', 'REFRESH');
  });

  it('sends small files as one multipart POST with progress and the bearer token', async () => {
    const { result } = renderHook(() => useVideoUploads('p1', 's1'), { wrapper });
    act(() => result.current.start(fileOfSize('day1.mp4', 10)));
    expect(tus.instances).toHaveLength(0);
    const xhr = FakeXhr.last!;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/projects/p1/subjects/s1/videos/');
    expect(xhr.headers.authorization).toBe('Bearer ACCESS');
    expect((xhr.body!.get('file') as File).name).toBe('day1.mp4');
    expect(xhr.body!.get('name')).toBe('day1');
    act(() => xhr.respond(201, { video_uuid: 'v1' }));
    await waitFor(() => expect(result.current.items[0]!.status).toBe('done'));
  });

  it('sends files above 50 MB through the resumable tus endpoint', () => {
    const { result } = renderHook(() => useVideoUploads('p1', 's1'), { wrapper });
    act(() => result.current.start(fileOfSize('night.mov', RESUMABLE_THRESHOLD + 1)));
    expect(FakeXhr.last).toBeNull();
    expect(tus.instances).toHaveLength(1);
    const options = tus.instances[0]!.options;
    expect(options.endpoint).toBe('/api/uploads/');
    expect(options.metadata).toEqual({ project_uuid: 'p1', subject_uuid: 's1', filename: 'night.mov', name: 'night' });
    expect(result.current.items[0]!.resumable).toBe(true);
  });

  it('shows the server message when an upload is refused', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { result } = renderHook(() => useVideoUploads('p1', 's1'), { wrapper });
    act(() => result.current.start(fileOfSize('broken.mp4', 10)));
    act(() => FakeXhr.last!.respond(400, { errors: { file: ['The file is not a readable video.'] } }));
    await waitFor(() => expect(result.current.items[0]!.status).toBe('error'));
    expect(result.current.items[0]!.error).toBe('The file is not a readable video.');
    // A refusal of the file itself: sending it again cannot succeed.
    expect(result.current.items[0]!.refused).toBe(true);
  });

  it('keeps Retry for a failure that another try may fix', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { result } = renderHook(() => useVideoUploads('p1', 's1'), { wrapper });
    act(() => result.current.start(fileOfSize('day1.mp4', 10)));
    act(() => FakeXhr.last!.respond(503, { errors: 'The server is busy.' }));
    await waitFor(() => expect(result.current.items[0]!.status).toBe('error'));
    expect(result.current.items[0]!.refused).toBe(false);
  });

  it('remembers the video an upload became, so its card can follow the row', async () => {
    const { result } = renderHook(() => useVideoUploads('p1', 's1'), { wrapper });
    act(() => result.current.start(fileOfSize('day2.mp4', 10)));
    act(() => FakeXhr.last!.respond(201, { video_uuid: 'v-42', status: 'processing' }));
    await waitFor(() => expect(result.current.items[0]!.status).toBe('done'));
    expect(result.current.items[0]!.videoUuid).toBe('v-42');
  });

  it('names uploads after the file without its extension', () => {
    expect(nameFromFile('M12 day 3.final.mp4')).toBe('M12 day 3.final');
    expect(nameFromFile('.hidden')).toBe('.hidden');
  });
});
