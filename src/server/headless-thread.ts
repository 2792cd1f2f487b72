// A page thread of `headlessRenderer({ isolate: true })` (headless-isolated.ts): the in-process
// renderer, one page at a time. In: the plain fields of a RenderJob. Out: `{ started: true }` when it
// takes the job, then `{ result }` (html, status, redirect) or `{ error: { code, message } }`. The main thread ends this thread
// when the render is aborted or times out, which is how a page that never yields is stopped.

import { parentPort, workerData } from 'node:worker_threads';
import type { AppLocation } from '../location.js';
import { headlessRenderer, type HeadlessRendererOptions } from './headless.js';
import type { UrlSettings } from './urls.js';

interface PlainJob {
  location: AppLocation;
  url: string;
  canonical: string;
  notFound: boolean;
  settings: UrlSettings;
}

const port = parentPort;
if (port) {
  const renderer = headlessRenderer({ ...(workerData as HeadlessRendererOptions), isolate: false, maxPages: 1 });
  // Loading happy-dom before the first job keeps its import out of that job's time.
  void import('happy-dom').catch(() => {});
  const never = new AbortController().signal;
  port.on('message', (job: PlainJob) => {
    port.postMessage({ started: true });
    renderer.render({ ...job, match: null, signal: never }).then(
      (result) => port.postMessage({ result }),
      (error: unknown) => {
        const { code, message } = error as { code?: unknown; message?: unknown };
        port.postMessage({ error: { code: typeof code === 'string' ? code : 'RENDER_FAILED', message: typeof message === 'string' ? message : String(error) } });
      },
    );
  });
}
