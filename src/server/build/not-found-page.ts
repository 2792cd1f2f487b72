// The page a static host serves, with a 404, for a URL it has no file for: `404.html` at the
// folder's root, the name Netlify, Cloudflare Pages, GitHub Pages, Vercel, Firebase Hosting and
// surge look for. Its content is the table's notFound view as the handler renders it for that
// file's own URL (`/404.html` under base), in the app's shell: a crawler gets the app's own "not
// found" page with a 404 status, and a browser gets the app, whose router then draws the state of
// the URL it is really at (one with no snapshot, such as a state of a route with no entries(),
// included).

import type { AppLocation } from '../../url/location.js';
import { writeInside } from '../files/folder.js';
import { snapshotPath } from '../files/paths.js';
import { thrownText } from '../printable.js';

/** The file's name, relative to the output folder, and the location it is rendered for. */
export const NOT_FOUND_FILE = '404.html';
const NOT_FOUND_LOCATION: AppLocation = '/404.html';

/** What writing the page came to: the file written, or why none was. */
export type NotFoundPage = { file: string } | { file: null; why: string };

/** Whether a state's snapshot file stands where the page goes (a folder `404.html/`, in any case). */
function takesItsName(state: AppLocation): boolean {
  try {
    return snapshotPath(state).split('/', 1)[0]?.toLowerCase() === NOT_FOUND_FILE;
  } catch {
    return false; // a state with no file is written by nobody
  }
}

/**
 * Renders the notFound view with `render` and writes it as `404.html` in `outDir`, unless one of
 * `states` (every state of the table) takes the name or `/404.html` is itself a state.
 */
export async function writeNotFoundPage(
  render: (location: AppLocation) => Promise<{ status: number; html: string }>,
  outDir: string,
  states: Iterable<AppLocation>,
): Promise<NotFoundPage> {
  for (const state of states)
    // Said of the state, not of a file: a redirect's, a failed one's or another shard's is no file here.
    if (takesItsName(state)) return { file: null, why: `${state} is a state, whose snapshot's folder takes the name ${NOT_FOUND_FILE}` };
  let page: { status: number; html: string };
  try {
    page = await render(NOT_FOUND_LOCATION);
  } catch (error) {
    // A render that fails (a view that throws, a headless page's script, a timeout) fails the page
    // alone; the handler's errors name the location and the cause.
    return { file: null, why: error instanceof Error ? error.message : `rendering ${NOT_FOUND_LOCATION} failed: ${thrownText(error)}` };
  }
  if (page.status !== 404) return { file: null, why: `${NOT_FOUND_LOCATION} is answered ${page.status}, not 404` };
  try {
    await writeInside(outDir, NOT_FOUND_FILE, page.html);
  } catch (error) {
    // A folder or another spelling planted at the name, a full disk: the page fails alone, as a
    // state's file does, and the run still reports the states it wrote.
    return { file: null, why: `writing ${NOT_FOUND_FILE} failed: ${thrownText(error)}` };
  }
  return { file: NOT_FOUND_FILE };
}
