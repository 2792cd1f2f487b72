// The Host check Vite makes against DNS rebinding (`server.allowedHosts`, `preview.allowedHosts`),
// made again by the plugin's middlewares: Vite 6 ran the middlewares a plugin adds in
// `configureServer` before its own check, so a page on evil.example whose name a rebinding DNS
// points at 127.0.0.1 read the snapshots (the dev server's data, from the routes' hooks). A request
// whose Host Vite would refuse is left to Vite (`next()`), which refuses it, whichever runs first.

import { isIP } from 'node:net';

/**
 * Whether Vite allows the `Host` header `host`, by its rules: any with `allowedHosts: true` or over
 * HTTPS (which DNS rebinding cannot reach), none given, an IP address, `localhost` and names under
 * it, and the resolved list's names (one that starts with `.`: that name and every name under it).
 */
export function allowsHost(host: string | undefined, allowedHosts: readonly string[] | true, https: unknown): boolean {
  if (host === undefined || allowedHosts === true || https) return true;
  const text = host.trim();
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    return end > 0 && isIP(text.slice(1, end)) === 6;
  }
  const colon = text.indexOf(':');
  const name = colon < 0 ? text : text.slice(0, colon);
  if (isIP(name) === 4 || name === 'localhost' || name.endsWith('.localhost')) return true;
  return allowedHosts.some(
    (allowed) => allowed === name || (allowed.startsWith('.') && (allowed.slice(1) === name || name.endsWith(allowed))),
  );
}
