// What a snapshot belongs to: the app's build. A deploy changes the app's hashed asset names, and a
// snapshot of the old build names them (a page whose scripts 404): it must never be served once the
// build changes, from any store. The default build is a hash of the app's page, which names them.

import { createHash } from 'node:crypto';
import { SnapshotError } from './errors.js';

/** The default build of an app whose page is `html`: a short hash of it. */
export const buildOf = (html: string): string => createHash('sha256').update(html).digest('base64url').slice(0, 16);

/** Checks a `build` option: a non-empty string, at most 200 characters, with no control characters. */
export function checkBuild(build: unknown): string {
  if (typeof build === 'string' && build !== '' && build.length <= 200 && !/[\x00-\x1f\x7f]/.test(build)) return build;
  throw new SnapshotError(
    'BAD_OPTION',
    `build must be a non-empty string naming the app's build (at most 200 characters, no control characters), got ${JSON.stringify(build)}`,
  );
}
