// Loads a CommonJS file of dist/bundle/ the way require() does, with V8's code cache beside it.
// V8 compiles a function the first time it runs; a `validate` of 10,000 records spent a good part
// of its CPU compiling the bundle and the schema validator, the same work on every run. The build
// (scripts/code-cache.js) runs the CLI once in-process and keeps what V8 compiled by then in
// FILE.cache; a run hands it back to V8 and skips that compiling. Node's own compile cache
// (module.enableCompileCache) is written by a first run into a writable directory; this one is made
// by the build and ships in the package, so the first run of an install is fast too.
//
// A cache is only a hint: V8 checks it against its own version and flags and rejects it otherwise
// (another node, other flags), and then compiles as if there were none: a package built under
// Node 24 runs under Node 22 (or the reverse) without the cache, silently (test/cli/code-cache.test.ts
// runs it so). V8 checks the source only by its length, so the cache also carries the CRC-32 of
// the source it was made from, and any other source (a rebuilt bundle without a new cache) runs
// without it. A CRC-32, not a SHA-256: the check is against a mistake, not an attacker (who could
// write the bundle itself), and the SHA-256 of the bundle alone (1.2 MB) was a tenth of the
// instructions of `zoneplan --version`; with zlib's CRC-32 it runs 211M instead of 232M, a
// validate of 15 records 280M instead of 302M (valgrind, two runs each).
//
// Builtins come from process.getBuiltinModule, not `import`: an ES module's import of a builtin
// makes a module of all its exports, which reads every lazy one (node:fs's promises, and with them
// readline: test/cli/bundle.test.ts checks that no command loads them).

const { readFileSync } = process.getBuiltinModule('node:fs');
const Module = process.getBuiltinModule('node:module');
const { dirname } = process.getBuiltinModule('node:path');
const { Script } = process.getBuiltinModule('node:vm');
const { crc32 } = process.getBuiltinModule('node:zlib');

const HASH_BYTES = 4;

/** The CRC-32 of the file's bytes, 4 bytes big-endian. */
function digest(bytes) {
  const out = Buffer.alloc(HASH_BYTES);
  out.writeUInt32BE(crc32(bytes));
  return out;
}

/** The cache of `bytes` (its hash, then V8's data), or undefined when there is none or it is another's. */
function readCache(file, bytes) {
  let data;
  try {
    data = readFileSync(`${file}.cache`);
  } catch {
    return undefined;
  }
  if (data.length <= HASH_BYTES || !data.subarray(0, HASH_BYTES).equals(digest(bytes))) return undefined;
  return data.subarray(HASH_BYTES);
}

/**
 * Runs `file` as a CommonJS module and registers it in require's cache (a later require() of it
 * gets the same exports). Returns the module's exports, whether the cache was used, and
 * `cachedData()`, which gives the cache file's content for what V8 has compiled of it so far (the
 * build writes that).
 */
export function loadBundled(file) {
  // the bytes are hashed as read, not the text encoded again
  const bytes = readFileSync(file);
  const source = bytes.toString('utf8');
  const cachedData = readCache(file, bytes);
  const script = new Script(Module.wrap(source), { filename: file, cachedData });
  const mod = new Module(file, undefined);
  mod.filename = file;
  const require = Module.createRequire(file);
  require.cache[file] = mod;
  script.runInThisContext()(mod.exports, require, mod, file, dirname(file));
  mod.loaded = true;
  return {
    exports: mod.exports,
    /** whether V8 took the cache (false: none, another source's, or rejected by V8) */
    cacheUsed: cachedData !== undefined && !script.cachedDataRejected,
    cachedData: () => Buffer.concat([digest(bytes), script.createCachedData()]),
  };
}
