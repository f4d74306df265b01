/**
 * What `npm publish` would ship: the built CLI, the schema and the examples, without source maps or
 * build info for sources that are not shipped, and an `exports` map whose every target is shipped.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);

describe('the published package', () => {
  it('ships no source maps or build info, and every export target', async () => {
    // --ignore-scripts: the file list is what matters, not another build
    const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: root,
    });
    const files = (JSON.parse(stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    expect(files).toContain('bin/zoneplan.js');
    expect(files).toContain('dist/cli/main.js');
    // the one file bin/zoneplan.js runs (scripts/bundle.js), with the validator it loads from beside it
    expect(files).toContain('dist/bundle/zoneplan.cjs');
    expect(files).toContain('dist/bundle/schema-validator.generated.cjs');
    // V8's code cache of both (scripts/code-cache.js) and the loader that reads it
    expect(files).toContain('dist/bundle/zoneplan.cjs.cache');
    expect(files).toContain('dist/bundle/schema-validator.generated.cjs.cache');
    // undici's Agent and request, in a file of their own with its cache (src/client/undici-parts.ts)
    expect(files).toContain('dist/bundle/undici-parts.cjs');
    expect(files).toContain('dist/bundle/undici-parts.cjs.cache');
    expect(files).toContain('bin/bundle-loader.js');
    expect(
      files.filter((f) => f.endsWith('.map') || f.includes('tsbuildinfo') || f.startsWith('src/')),
    ).toEqual([]);
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
      exports: Record<string, string>;
    };
    expect(Object.keys(pkg.exports)).toEqual(expect.arrayContaining(['.', './schema.json']));
    for (const target of Object.values(pkg.exports)) expect(files).toContain(target.replace(/^\.\//, ''));
  }, 60_000);
});
