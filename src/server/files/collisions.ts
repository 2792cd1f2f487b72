// Snapshot files that would be one on a case-insensitive file system (macOS's default APFS,
// Windows NTFS), found the same way on every platform. Two files collide when the first folder or
// file name where their paths differ differs only in case: `Books/1/index.html` and
// `books/1/index.html` are one file there, and `Books/1/index.html` and `books/2/index.html` share a
// folder, which a copy to a case-sensitive disk would then name for one of the two states only.
// Names are ASCII (paths.ts), so folding is ASCII lower case. Whoever claims a name first keeps it.
// Two states can also name the very same file: `/a/` is a location of its own (the pattern `/a/`
// does not match `/a`), and both are `a/index.html`; the later claim of a file is a collision too.

import type { AppLocation } from '../../url/location.js';
import { snapshotPath } from './paths.js';

/** A state holding a name, and how many claimed files hold it. */
interface Holder {
  exact: string;
  location: AppLocation;
  files: number;
}

/** What `claim` found in the way: the state that holds the name and the name as it holds it. */
export interface Collision {
  /** The state whose file or folder it is. */
  holder: AppLocation;
  /** The folder or file path (relative, `/`-separated) as that state holds it. */
  held: string;
}

/** A registry of claimed snapshot files (relative, `/`-separated paths from `snapshotPath`). */
export interface FileClaims {
  /** The collision claiming `file` for `location` would make, or null when there is none. */
  check(file: string): Collision | null;
  /** Claims `file` for `location` unless it collides; returns the collision, or null once claimed (again). */
  claim(location: AppLocation, file: string): Collision | null;
  /** Gives back a claimed file's names; a file never claimed is ignored. */
  release(file: string): void;
}

/** The prefixes of a path: `a`, `a/b`, `a/b/index.html`. */
function prefixes(file: string): string[] {
  const parts = file.split('/');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

/** A new, empty registry. */
export function createFileClaims(): FileClaims {
  // Folded prefix -> the spelling claimed files hold it in.
  const held = new Map<string, Holder>();
  // Claimed file -> the state that claimed it.
  const claimed = new Map<string, AppLocation>();

  function check(file: string): Collision | null {
    for (const prefix of prefixes(file)) {
      const holder = held.get(prefix.toLowerCase());
      if (holder && holder.exact !== prefix) return { holder: holder.location, held: holder.exact };
    }
    return null;
  }

  return {
    check,
    claim(location, file) {
      const owner = claimed.get(file);
      if (owner !== undefined) return owner === location ? null : { holder: owner, held: file };
      const collision = check(file);
      if (collision) return collision;
      claimed.set(file, location);
      for (const prefix of prefixes(file)) {
        const key = prefix.toLowerCase();
        const holder = held.get(key);
        if (holder) holder.files++;
        else held.set(key, { exact: prefix, location, files: 1 });
      }
      return null;
    },
    release(file) {
      if (!claimed.delete(file)) return;
      for (const prefix of prefixes(file)) {
        const key = prefix.toLowerCase();
        const holder = held.get(key) as Holder;
        if (--holder.files === 0) held.delete(key);
      }
    },
  };
}

/** A collision as a sentence: which state's file or folder a file would be. */
export function describeCollision(file: string, { holder, held }: Collision): string {
  if (held === file)
    return `its file ${JSON.stringify(file)} is the file of ${JSON.stringify(holder)} too: a path with and without a last "/" names one file`;
  return (
    `its file ${JSON.stringify(file)} collides with ${JSON.stringify(held)} of ${JSON.stringify(holder)}: ` +
    'names that differ only in case are one name on a case-insensitive file system (macOS, Windows)'
  );
}

/**
 * The states whose file collides with an earlier state's (in the order given), each with why: the
 * same answer whichever of them a run renders. A state with no safe path is left out.
 */
export function findCollisions(states: Iterable<AppLocation>): Map<AppLocation, string> {
  const claims = createFileClaims();
  const found = new Map<AppLocation, string>();
  for (const state of states) {
    let file: string;
    try {
      file = snapshotPath(state);
    } catch {
      continue;
    }
    const collision = claims.claim(state, file);
    if (collision) found.set(state, describeCollision(file, collision));
  }
  return found;
}
