// The client's half of the settled contract (src/contract/settled.ts): once no navigation is in flight,
// `<html>` says `settled` with the state's outcome beside it, and the settled event follows (the
// router sets `busy` itself as each navigation begins). Whatever waits for a page to be done (a
// headless snapshot, `verify --browser`, an app's tests) reads these.

import type { AppLocation } from '../url/location.js';
import { REDIRECT_ATTRIBUTE, SETTLED_EVENT, STATE_ATTRIBUTE, STATUS_ATTRIBUTE } from '../contract/settled.js';
import type { LiveWindow, RouterDocument } from './dom.js';

/**
 * Marks the document settled with the outcome of the state shown, then dispatches the settled event
 * (its detail also holds what the state's `load` threw, for a headless renderer to say why it failed).
 * `doc` is the window's document.
 */
export function publishSettled(
  win: LiveWindow,
  doc: RouterDocument,
  location: AppLocation | null,
  status: number,
  redirect: AppLocation | undefined,
  error: unknown,
): void {
  const root = doc.documentElement;
  root.setAttribute(STATE_ATTRIBUTE, 'settled');
  root.setAttribute(STATUS_ATTRIBUTE, '' + status);
  if (redirect === undefined) root.removeAttribute(REDIRECT_ATTRIBUTE);
  else root.setAttribute(REDIRECT_ATTRIBUTE, redirect);
  win.dispatchEvent(new win.CustomEvent(SETTLED_EVENT, { detail: { location, status, redirect, error } }));
}
