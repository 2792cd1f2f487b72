// What the server keeps alive on an object's account. The answers prepared from a stored snapshot
// (http/respond.ts) would live as long as the snapshot, so they are kept only when the snapshot's
// owner (the memoryStore that holds it) agrees to count their bytes against its bound, evicting
// other entries to make room. respond.ts knows no store: it asks the owner of the object it is
// given. An object with no owner (a snapshot from fileStore, redisStore or a store of your own, or
// one rendered with no store) keeps nothing past the requests that use it.

/** Asked before `bytes` more are kept alive on an object's account: true when it counted them, false to refuse. */
export type HeldBytes = (bytes: number) => boolean;

const owners = new WeakMap<object, HeldBytes>();

/** Makes `owner` the one that counts (or refuses) what is kept alive on `memo`'s account. */
export function ownMemo(memo: object, owner: HeldBytes): void {
  owners.set(memo, owner);
}

/** True when `memo`'s owner has counted `bytes` more kept on its account; false when it refuses or there is none. */
export function chargeMemo(memo: object, bytes: number): boolean {
  const owner = owners.get(memo);
  return owner !== undefined && owner(bytes);
}
