import { expect } from 'vitest';
import type { TestUser } from './factories.js';

export interface HttpAnswer {
  status: number;
  bytes: Buffer;
  text: string;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: each test reads its own answer's shape
  json: () => any;
}

/**
 * Requests over real HTTP to a listening test app as one user: a JSON body, a multipart `FormData`, or none. The
 * answer is read whole (bytes and text) so a test can check a download or an error alike.
 */
export function httpRequests(baseUrl: () => string) {
  async function request(user: TestUser, method: string, url: string, body?: unknown): Promise<HttpAnswer> {
    const init: RequestInit = { method, headers: user.headers };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { ...user.headers, 'content-type': 'application/json' };
    }
    const response = await fetch(`${baseUrl()}${url}`, init);
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = bytes.toString('utf8');
    return { status: response.status, bytes, text, headers: response.headers, json: () => JSON.parse(text) };
  }

  /** Polls a run (`runUrl` ends with its uuid and `/`) until it is neither queued nor running, or a minute has passed. */
  async function waitForRun<Run extends { status: string }>(user: TestUser, runUrl: string): Promise<Run> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const response = await request(user, 'GET', runUrl);
      expect(response.status, response.text).toBe(200);
      const run = response.json() as Run;
      if (!['queued', 'running'].includes(run.status) || Date.now() > deadline) return run;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Imports a pose file (CSV) to a video as `user`; answers the new set's uuid. */
  async function importPose(user: TestUser, videoUrl: string, file: Buffer, name: string): Promise<string> {
    const body = new FormData();
    body.append('name', name);
    body.append('file', new Blob([file]), `${name}.csv`);
    const response = await request(user, 'POST', `${videoUrl}pose/`, body);
    expect(response.status, response.text).toBe(201);
    return response.json().pose_uuid as string;
  }

  return { request, waitForRun, importPose };
}
