/**
 * The V8 flags every zoneplan process sets (bin/v8-flags.js) are ones this Node's V8 knows: V8 takes
 * an unknown flag from `setFlagsFromString` with no error to the caller, so a flag a new Node
 * dropped would silently stop doing its work. Checked on this node and, when ZONEPLAN_TEST_OTHER_NODE
 * names a second one (.ci/run sets it: Node 22 in the Node 24 pass and the reverse), on that one.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// bin/ is plain JavaScript without types: imported by its URL
const flagsModule = new URL('../../bin/v8-flags.js', import.meta.url).href;
const { V8_FLAGS } = (await import(flagsModule)) as { V8_FLAGS: string[] };
const nodes = [process.execPath, process.env.ZONEPLAN_TEST_OTHER_NODE].filter((n): n is string => !!n);

describe.each(nodes)('the V8 flags of bin/v8-flags.js under %s', (node) => {
  it.each(V8_FLAGS)('%s is accepted', async (flag: string) => {
    // on the command line an unknown flag is an error (exit 9, "bad option"), unlike setFlagsFromString
    const r = await promisify(execFile)(node, [flag, '-e', '0']);
    expect(r.stderr).toBe('');
  });
});

describe('mayStartLocalApi: which runs load the local API builtins before the flags', async () => {
  const { mayStartLocalApi } = (await import(flagsModule)) as {
    mayStartLocalApi: (args: string[], env: Record<string, string | undefined>) => boolean;
  };
  it.each([
    [['serve', '--port', '0'], {}, true],
    [['plan', 'z.yaml'], {}, true],
    [['--verbose', 'apply', 'z.yaml', '--auto-approve'], {}, true],
    [['drift', 'z.yaml'], { CLOUDFLARE_API_TOKEN: '  ' }, true],
    [['plan', 'z.yaml', '--local'], { CLOUDFLARE_API_TOKEN: 't' }, true],
    [['plan', 'z.yaml', '--rehearse'], { CLOUDFLARE_API_TOKEN: 't' }, true],
    [['apply', 'z.yaml', '--rehearse-first'], { CLOUDFLARE_API_TOKEN: 't' }, true],
    [['plan', 'z.yaml', '--api-url', 'http://127.0.0.1:1/client/v4'], {}, false],
    [['plan', 'z.yaml', '--api-url=http://127.0.0.1:1/client/v4'], {}, false],
    [['plan', 'z.yaml'], { CLOUDFLARE_API_TOKEN: 't' }, false],
    [['export', '--zone', 'a.example'], { CLOUDFLARE_API_KEY: 'k' }, false],
    [['plan', 'z.yaml'], { CLOUDFLARE_BASE_URL: 'https://api.example/client/v4' }, false],
    [['validate', 'z.yaml'], {}, false],
    [['fmt', 'z.yaml'], {}, false],
    [['--version'], {}, false],
    [[], {}, false],
  ] as const)('%j with %j: %s', (args, env, expected) => {
    expect(mayStartLocalApi([...args], env)).toBe(expected);
  });
});

describe('mayHash: which runs load node:crypto before the flags', async () => {
  const { mayHash } = (await import(flagsModule)) as { mayHash: (args: string[]) => boolean };
  it.each([
    [['plan', 'z.yaml'], true],
    [['--verbose', 'apply', 'z.yaml'], true],
    [['drift', 'z.yaml'], true],
    [['serve', '--port', '0'], true],
    [['validate', 'z.yaml'], false],
    [['--quiet', 'validate', 'a.yaml', 'b.yaml'], false],
    [['fmt', 'z.yaml', '--write'], true],
    [['completion', 'bash'], false],
    [['--version'], false],
    [['--help'], false],
    [[], true],
  ] as const)('%j: %s', (args, expected) => {
    expect(mayHash([...args])).toBe(expected);
  });
});
