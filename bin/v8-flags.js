// The V8 flags every zoneplan process runs with. V8 rejects a code cache made under other flags, so
// bin/zoneplan.js, the build's scripts/code-cache.js and its test take them from here.

export const V8_FLAGS = [
  // undici parses HTTP with WebAssembly (llhttp). V8 compiles it at once with its baseline compiler
  // and then again, optimised, on background threads; a short command ended before that finished
  // and then waited for it (about a third of a 15-record plan's time, after its last output). The
  // baseline code parses a 10,000-record answer no slower.
  '--liftoff-only',
  // TurboFan optimises a command's hot loops (reading 10,000 records, normalising 10,000 live
  // ones) on a background thread while they run; with V8's default inlining it spent about 280 ms
  // of CPU doing so in a 10,000-record plan, most of it arriving after the loop it was for had
  // ended, and on a machine of two cores it competed with the command itself. Smaller inlining
  // budgets compile sooner and cheaper: the same plan measured 7-9% less wall time and about 12%
  // less CPU (41 interleaved runs, bench notes in docs/benchmarks.md).
  '--max-inlined-bytecode-size=40',
  '--max-inlined-bytecode-size-cumulative=120',
  // V8 doubles the young generation each time a scavenge finds it busy; a command reading 10,000
  // records keeps most of what it makes, and grown four times at a step its young generation
  // reaches the size it needs in fewer scavenges (src/young-generation.ts stops the growth for
  // large inputs)
  '--semi-space-growth-factor=4',
];

/**
 * The builtins every command loads beyond Node's own start (the bundle's first lines: node:crypto,
 * node:os, node:timers/promises, node:async_hooks's AsyncLocalStorage; the client's: node:net,
 * node:perf_hooks). Node compiles a builtin with the code cache built into node, which V8, like
 * ours, takes only under the flags it was made with: a builtin first loaded after the flags above
 * are set is parsed and compiled from its source. Loaded before them, they come from that cache:
 * `--version` runs some 30M instructions (12%) fewer, a 15-record validate 40M to 60M. A command
 * that needs none of them pays little for them (they come from the cache); a builtin missing here
 * costs only time (test/cli/bundle.test.ts checks a plan loads none of these after the flags).
 */
export const EARLY_BUILTINS = [
  'node:crypto',
  'node:os',
  'node:timers/promises',
  'node:net',
  'node:perf_hooks',
];

/** Set before anything is compiled (WebAssembly above all), after the builtins every command loads. */
export function setV8Flags() {
  for (const name of EARLY_BUILTINS) process.getBuiltinModule(name);
  // a getter that loads its modules on first use
  void process.getBuiltinModule('node:async_hooks').AsyncLocalStorage;
  // process.getBuiltinModule, not `import`: see bin/bundle-loader.js
  const { setFlagsFromString } = process.getBuiltinModule('node:v8');
  for (const flag of V8_FLAGS) setFlagsFromString(flag);
}
