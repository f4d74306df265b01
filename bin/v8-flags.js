// The V8 flags every zoneplan process runs with. V8 rejects a code cache made under other flags, so
// bin/zoneplan.js, the build's scripts/code-cache.js and its test take them from here.
import { setFlagsFromString } from 'node:v8';

export const V8_FLAGS = [
  // undici parses HTTP with WebAssembly (llhttp). V8 compiles it at once with its baseline compiler
  // and then again, optimised, on background threads; a short command ended before that finished
  // and then waited for it (about a third of a 15-record plan's time, after its last output). The
  // baseline code parses a 10,000-record answer no slower.
  '--liftoff-only',
];

/** Set before anything is compiled (WebAssembly above all). */
export function setV8Flags() {
  for (const flag of V8_FLAGS) setFlagsFromString(flag);
}
