// Only for type-checking the core with no DOM and no Node types: the one platform global its public
// types name. Consumers get AbortSignal from the DOM lib or @types/node.
interface AbortSignal {
  readonly aborted: boolean;
}
