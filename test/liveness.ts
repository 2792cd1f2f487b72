// How long a test waits for what must happen soon (a request aborted, a page closed, a render
// under way) before it fails: liveness only, never a measure of speed. vi.waitFor's own default,
// one second, is short on a machine busy with the whole suite on two workers and other jobs; this
// stays under the 120 s a test may take (vitest.config.ts), so the wait's own message is the failure.
export const LIVENESS_MS = 60_000;

/** vi.waitFor's options for such a wait. */
export const SOON = { timeout: LIVENESS_MS } as const;

/**
 * A render's time limit (a handler's and a renderer's timeoutMs) where the test is not about time
 * limits: a headless render starts a page process (about a second of CPU), and with two test files
 * of them at once and other jobs on two cores (load average 17), renders took past the 10 s default,
 * and a prerender's, which waits for one of the renderer's pages, past 30 s. Liveness only.
 */
export const RENDER_LIVENESS_MS = 60_000;
