import { describe, expect, it } from 'vitest';
import { redirect } from '../../../src/routes/outcome.js';
import { createRoutes } from '../../../src/routes/table.js';
import { createSnapshotHandler } from '../../../src/server/handler.js';

// A state whose load redirects to a URL of that same state is a loop, whichever way the URL is
// spelled: the snapshot of `/search?q=a` is asked for by the state's key, so a 302 to
// `/search?q=a&from=old` (a query key the route does not keep) is answered from that very snapshot.
const SHELL = '<!DOCTYPE html><html><head><title>T</title></head><body><main id="app"></main></body></html>';

function handler() {
  const routes = createRoutes(
    [
      {
        path: '/search',
        queryKeys: ['q'],
        load: ({ query }) => {
          if (query['from'] === undefined) throw redirect(`/search?q=${String(query['q'])}&from=old`);
          return null;
        },
        render: () => '<p>results</p>',
      },
      { path: '/old', load: () => Promise.reject(redirect('/new#top')), render: () => '' },
    ],
    { queryKeys: [] },
  );
  return createSnapshotHandler({ routes, origin: 'https://example.com', shell: SHELL, outlet: '#app', onError: () => {} });
}

describe('a redirect to its own state', () => {
  it('is a 500 when the target names the state in another spelling (a query key the state does not keep)', async () => {
    await expect(handler().render('/search?q=a')).rejects.toMatchObject({
      code: 'RENDER_FAILED',
      message: 'rendering /search?q=a redirects to itself',
    });
  });

  it('is still a redirect when the target is another state', async () => {
    expect((await handler().render('/old')).redirect).toBe('https://example.com/new');
  });
});
