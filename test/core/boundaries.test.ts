// The import boundaries of docs/reference/design.md are lint errors, not only prose: ESLint's own Node API lints a
// small snippet as if it lived at a path in the tree, with the project's eslint.config.js.
import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

/** The boundary messages ESLint reports for `code` placed at `file` (a path below the repo root). */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, file) });
  return result.messages
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax')
    .map((m) => m.message);
}

const use = (spec: string) => `import { x } from '${spec}';\nexport const y = x;\n`;
const useLater = (spec: string) => `export const y = () => import('${spec}');\n`;

describe('import boundaries (eslint.config.js)', () => {
  it('src/core cannot import a kind, statically or dynamically', async () => {
    expect(await boundaryErrors('src/core/probe.ts', use('../kinds/dns/index.js'))).toEqual([
      expect.stringMatching(/src\/core never names a kind/),
    ]);
    expect(await boundaryErrors('src/core/export/probe.ts', useLater('../../kinds/index.js'))).toHaveLength(
      1,
    );
    expect(await boundaryErrors('src/core/probe.ts', use('../config/load.js'))).toEqual([]);
  });

  it('the reconciler and src/server cannot import each other', async () => {
    for (const file of [
      'src/core/probe.ts',
      'src/kinds/dns/probe.ts',
      'src/config/probe.ts',
      'src/client/probe.ts',
      'src/cli/probe.ts',
    ]) {
      const up = file.split('/').length - 2;
      const spec = `${'../'.repeat(up)}server/index.js`;
      expect(await boundaryErrors(file, use(spec)), file).toHaveLength(1);
      expect(await boundaryErrors(file, useLater(spec)), file).toHaveLength(1);
    }
    for (const folder of ['core', 'kinds', 'config', 'client', 'cli']) {
      expect(
        await boundaryErrors('src/server/areas/dns/probe.ts', use(`../../../${folder}/x.js`)),
        folder,
      ).toEqual([expect.stringMatching(/never import each other/)]);
    }
    // a server file named core.ts is not src/core
    expect(await boundaryErrors('src/server/areas/dns/probe.ts', use('../../store/core.js'))).toEqual([]);
  });

  it('the CLI starts the embedded server through exactly two files', async () => {
    for (const file of ['src/cli/serve.ts', 'src/cli/pipeline/target.ts'])
      expect(await boundaryErrors(file, useLater('../server/index.js')), file).toEqual([]);
  });

  it('src/rules imports neither side', async () => {
    expect(await boundaryErrors('src/rules/dns/probe.ts', use('../../server/http/envelope.js'))).toHaveLength(
      1,
    );
    expect(await boundaryErrors('src/rules/dns/probe.ts', use('../../kinds/dns/plan.js'))).toHaveLength(1);
    expect(await boundaryErrors('src/rules/dns/probe.ts', use('../secret-names.js'))).toEqual([]);
  });
});
