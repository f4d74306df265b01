/**
 * How deep a document may nest: desired-state files (the reconciler) and request bodies (the local
 * API) share the one limit, so a value one side accepts is never refused by the other. Real
 * configuration nests a handful of levels; the limit only stops documents built to exhaust the stack
 * (a recursive JSON.stringify or SQLite's JSON functions fail some thousands of levels down).
 * The document itself is level 1, a value inside it level 2, and so on.
 */
export const MAX_NESTING_DEPTH = 64;
