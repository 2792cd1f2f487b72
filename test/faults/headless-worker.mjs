// headlessRenderer (in-process) on a worker thread, with a ping: test/faults/headless.test.ts's
// way to show that a page that never yields stops the thread its renderer runs on.
// In: `{ id, job }` (the plain fields of a RenderJob) or `{ id, ping: true }`.
// Out: `{ id, html }`, `{ id, error: { code, message } }` or `{ id, pong: true }`.
import { parentPort, workerData } from 'node:worker_threads';
import { headlessRenderer } from 'crawlable-router/server';

const renderer = headlessRenderer(workerData);

parentPort.on('message', async ({ id, job, ping }) => {
  if (ping) return parentPort.postMessage({ id, pong: true });
  try {
    const { html } = await renderer.render({ ...job, match: null, signal: new AbortController().signal });
    parentPort.postMessage({ id, html });
  } catch (error) {
    parentPort.postMessage({ id, error: { code: error.code ?? 'RENDER_FAILED', message: error.message } });
  }
});
