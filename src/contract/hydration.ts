// What a server-rendered page (`cleanUrls: 'all'`) hands the client router, named once for both
// sides: a JSON data script with the state's location and `data`, an attribute on the outlet
// saying which location the server rendered into it, and (on any page rendered for a state) an
// attribute on `<title>` naming the shell's title and one on each head tag it added for its
// state. No DOM and no Node here.

/** The id of the `<script type="application/json">` that carries the first state's data. */
export const DATA_SCRIPT_ID = 'crawlable-router-data';

/** The outlet attribute naming the location whose view the server already wrote into it. */
export const RENDERED_ATTRIBUTE = 'data-router-rendered';

/**
 * The `<title>` attribute holding the shell's own title, on a page whose title a state's replaced
 * (a snapshot, a server-rendered or prerendered page, one from the real app run headless): what the
 * client shows for a route without a title, as the shell would.
 */
export const SHELL_TITLE_ATTRIBUTE = 'data-router-title';

/**
 * The attribute that marks a head tag as a state's and names that state's location: the client
 * router writes it on each tag it adds, and a snapshot on each tag it adds for its state, so a page
 * rendered for a state (by the hooks, the real app in happy-dom, or ahead of time) tells the client
 * which of its head tags are that state's and which the shell's. Internal.
 */
export const HEAD_ATTRIBUTE = 'data-router-head';

/** What the data script holds. */
export interface HydrationPayload {
  /** The location rendered, without an anchor. */
  location: string;
  /** The status the state was served with: 200, or 404 when its `load` threw `notFound()`. */
  status: number;
  /** What the route's `load` returned; absent when the route has no `load`. */
  data?: unknown;
}
