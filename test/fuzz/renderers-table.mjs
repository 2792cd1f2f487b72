// Route tables described by plain data (a `TableSpec`, generated in renderers-agree.test.ts), built
// from the library it is given: the sources in Node, the UMD global in the headless renderer's page,
// which imports this very file. Every hook writes what it sees (params, query, location, data), so
// two sides that give a hook different input draw different pages.

import { esc } from '../routes/outcome-cases.mjs';

/** A route's path pattern from its first word and pieces, its params named p0, p1… */
export function pattern(word, pieces) {
  const piece = (p, i) =>
    p.kind === 'word' ? `/${p.word}` : p.kind === 'param' ? `/:p${i}` : p.kind === 'optional' ? `{/:p${i}}` : `/*p${i}`;
  return `/${word}${pieces.map(piece).join('')}`;
}

/** Everything a hook can see, as text the page must escape. */
const echo = (c) => JSON.stringify([c.params, c.query, c.location, c.data ?? null]);

/** The route table a spec describes, its error view for the client, and a count of `load` calls. */
export function tableOf(spec, { createRoutes, notFound, redirect }) {
  const loads = { count: 0 };
  // A load that returns data, or ends as the markers in its params and query say (NF, RD, ER).
  const loadOf = (kind, i, to, status) =>
    kind === 'none'
      ? undefined
      : ({ params, query, location }) => {
          const said = JSON.stringify([params, query]);
          loads.count++;
          if (kind === 'markers' && said.includes('NF')) throw notFound();
          if (kind === 'markers' && said.includes('RD')) throw redirect(to, status);
          if (kind === 'markers' && said.includes('ER')) throw new Error('secret');
          return { route: i, said, location };
        };
  const routes = spec.routes.map((r, i) => {
    const path = pattern(r.word, r.pieces);
    const keys = r.queryKeys ? { queryKeys: r.queryKeys } : {};
    if (r.redirectTo !== undefined) {
      const target = r.redirectFunction ? (c) => `/${r.redirectTo}/${encodeURIComponent(echo(c))}` : pattern(r.redirectTo, r.pieces);
      return { path, name: `r${i}`, redirect: target, ...keys };
    }
    const load = loadOf(r.load, i, r.to, r.status);
    return {
      path,
      name: `r${i}`,
      ...keys,
      ...(load && { load }),
      ...(r.title && { title: (c) => `R${i} ${echo(c)}` }),
      ...(r.render && { render: (c) => `<h1>R${i}</h1><p title="${esc(echo(c))}">${esc(echo(c))}</p>` }),
      ...(r.head && {
        head: (c) => ({
          meta: [
            { name: 'description', content: echo(c) },
            { property: 'og:title', content: `R${i} ${c.location}` },
          ],
          link: [
            { rel: 'alternate', hreflang: 'x-default', href: c.location },
            ...(r.canonical ? [{ rel: 'canonical', href: `https://example.org${c.location}` }] : []),
          ],
          jsonLd: { '@type': 'Thing', name: echo(c) },
        }),
      }),
    };
  });
  const defaults =
    spec.defaults === 'static'
      ? {
          meta: [
            { name: 'description', content: 'Every <state> & "more"' },
            { name: 'robots', content: 'all' },
          ],
        }
      : spec.defaults === 'function'
        ? (c) => ({
            meta: [{ property: 'og:url', content: c.location }],
            link: [{ rel: 'alternate', hreflang: 'fr', href: `/fr${c.location}` }],
          })
        : spec.defaults === 'canonical'
          ? { link: [{ rel: 'canonical', href: 'https://example.org/every-state' }] }
          : undefined;
  const nfLoad = loadOf(spec.notFoundLoad, 'nf', '/a', 302);
  const notFoundView = spec.notFound
    ? {
        ...(nfLoad && { load: nfLoad }),
        title: (c) => `Not found ${c.location}`,
        head: (c) => ({ meta: [{ name: 'robots', content: `noindex ${c.location}` }] }),
        render: (c) => `<h1>Not found</h1><p>${esc(echo(c))}</p>`,
      }
    : undefined;
  const table = createRoutes(routes, {
    base: spec.base,
    sensitive: spec.sensitive,
    ...(notFoundView && { notFound: notFoundView }),
    ...(defaults && { head: defaults }),
    ...(spec.queryKeys && { queryKeys: spec.queryKeys }),
  });
  const error = { title: 'Error', head: () => ({ meta: [{ name: 'robots', content: 'noindex' }] }), render: () => '<h1>Error</h1>' };
  return { table, error, loads };
}
