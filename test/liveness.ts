// How long a test waits for what must happen soon (a request aborted, a page closed, a render
// under way) before it fails: liveness only, never a measure of speed. vi.waitFor's own default,
// one second, is short on a machine busy with the whole suite on two workers and other jobs; this
// stays under the 120 s a test may take (vitest.config.ts), so the wait's own message is the failure.
export const LIVENESS_MS = 60_000;

/** vi.waitFor's options for such a wait. */
export const SOON = { timeout: LIVENESS_MS } as const;
