// What bench.ts hands each bench part (importing bench.ts would run its main): the running server's address,
// API calls, uploads, server starts and memory readings.

export interface BenchHarness {
  cacheDir: string;
  /** The running server's address, e.g. http://127.0.0.1:8412. */
  baseUrl: string;
  log(message: string): void;
  // biome-ignore lint/suspicious/noExplicitAny: JSON answers of the API, read field by field
  api(method: string, url: string, token?: string, body?: unknown): Promise<any>;
  /** A fresh access token for the bench user, on the running server. */
  login(): Promise<string>;
  uploadMultipart(url: string, token: string, file: string): Promise<{ status: number; body: string; seconds: number }>;
  startServer(dataDir: string, env?: Record<string, string>): Promise<{ pid: number; stop(): Promise<void> }>;
  peakRssMb(pid: number): number;
  resetPeakRss(pid: number): void;
}
