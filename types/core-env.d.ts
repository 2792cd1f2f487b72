// Only for type-checking the core with no DOM and no Node types: the platform globals its public
// types name. Consumers get AbortSignal from the DOM lib or @types/node.
interface AbortSignal {
  readonly aborted: boolean;
}
interface Request {
  readonly method: string;
  readonly url: string;
}
