/**
 * node:crypto, loaded when first used rather than imported: `validate` hashes nothing (a file's
 * SHA-256 is taken when a saved plan records it, the schema's hash comes with the bundle), and
 * loading node:crypto took some 4 ms of its start. bin/v8-flags.js loads it before the V8 flags
 * for the commands that do hash (each step of a plan has a fingerprint), so there it comes from
 * Node's code cache.
 */
export function nodeCrypto(): typeof import('node:crypto') {
  return process.getBuiltinModule('node:crypto');
}
