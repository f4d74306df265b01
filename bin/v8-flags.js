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
 * The builtins every command loads beyond Node's own start (the bundle's first lines: node:os,
 * node:timers/promises, node:async_hooks's AsyncLocalStorage; the client's: node:net,
 * node:perf_hooks; node:crypto for a command that hashes, see mayHash). Node compiles a builtin
 * with the code cache built into node, which V8, like ours, takes only under the flags it was made
 * with: a builtin first loaded after the flags above are set is parsed and compiled from its
 * source. Loaded before them, they come from that cache: `--version` runs some 30M instructions
 * (12%) fewer, a 15-record validate 40M to 60M. A command that needs none of them pays little for
 * them (they come from the cache); a builtin missing here costs only time
 * (test/cli/bundle.test.ts checks a plan loads none of these after the flags).
 */
export const EARLY_BUILTINS = [
  'node:crypto',
  'node:os',
  'node:timers/promises',
  'node:net',
  'node:perf_hooks',
];

/**
 * The builtins the local API loads: Node's HTTP server, and node:cluster and node:dns, which a
 * server's listen() loads (cluster with child_process and dgram). Loaded after the flags, they are
 * compiled from their source: an embedded-default plan of 15 records runs 387M instructions with
 * them loaded first and 422M without (valgrind, two runs each). A command that needs none of them
 * paid 6M to 15M for loading them, so they are loaded first only when the command line looks like
 * one that starts the local API (mayStartLocalApi): a wrong guess costs a few milliseconds.
 */
export const LOCAL_API_BUILTINS = ['node:http', 'node:cluster', 'node:dns'];

/** The commands that may start the local API: `serve`, and those that pick a target. */
const TARGET_COMMANDS = new Set(['plan', 'apply', 'drift', 'export', 'page-shield']);
/** What makes a target remote without the command line saying so (src/cli/pipeline/target.ts). */
const REMOTE_VARIABLES = ['CLOUDFLARE_BASE_URL', 'CLOUDFLARE_API_TOKEN', 'CLOUDFLARE_API_KEY'];

/**
 * A guess, from the arguments alone, whether this run starts the local API: `serve`, a target
 * command given `--local` or `--rehearse` (a sandbox), or one with no `--api-url` and none of the
 * variables that name a remote API (the embedded default). A file's own `target:` is not read here,
 * and a global option's value given before the command (`--format json plan`) is taken for the
 * command: such a run loads these builtins late, which costs time only.
 */
export function mayStartLocalApi(args, env) {
  const command = args.find((a) => !a.startsWith('-'));
  if (command === 'serve') return true;
  if (!TARGET_COMMANDS.has(command)) return false;
  if (args.some((a) => a === '--local' || a.startsWith('--rehearse'))) return true;
  if (args.some((a) => a === '--api-url' || a.startsWith('--api-url='))) return false;
  return !REMOTE_VARIABLES.some((name) => env[name]?.trim());
}

/** The commands that hash nothing: no fingerprints, no file hashes, no random names (src/node-crypto.ts). */
const COMMANDS_WITHOUT_HASHES = new Set(['validate', 'completion']);

/**
 * A guess, from the arguments alone, whether this run hashes (each step of a plan has a
 * fingerprint, a saved plan the hashes of its files): every command but those above, and the
 * version or help alone. node:crypto is loaded first only then: it took some 4 ms of a
 * `validate`'s start (`--version` runs 213M instructions with it, about 195M without; valgrind, two
 * runs each). A wrong guess costs a few milliseconds.
 */
export function mayHash(args) {
  const command = args.find((a) => !a.startsWith('-'));
  if (command === undefined) return !args.some((a) => /^(-V|--version|-h|--help)$/.test(a));
  return !COMMANDS_WITHOUT_HASHES.has(command);
}

/**
 * Set before anything is compiled (WebAssembly above all), after the builtins the command loads
 * (`args` and `env` are the run's, for mayHash and mayStartLocalApi; without them all of
 * EARLY_BUILTINS).
 */
export function setV8Flags(args = [], env = {}) {
  for (const name of EARLY_BUILTINS)
    if (name !== 'node:crypto' || mayHash(args)) process.getBuiltinModule(name);
  if (mayStartLocalApi(args, env)) for (const name of LOCAL_API_BUILTINS) process.getBuiltinModule(name);
  // a getter that loads its modules on first use
  void process.getBuiltinModule('node:async_hooks').AsyncLocalStorage;
  // process.getBuiltinModule, not `import`: see bin/bundle-loader.js
  const { setFlagsFromString } = process.getBuiltinModule('node:v8');
  for (const flag of V8_FLAGS) setFlagsFromString(flag);
}
