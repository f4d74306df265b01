/** Shared by the config tests: real files in a temp dir, diagnostics as the one-line strings users see. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { checkFile, type LoadOptions } from '../../src/config/load.js';
import { formatDiagnostic } from '../../src/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'zoneplan-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let counter = 0;

/** Writes `text` to a fresh file in the temp dir and returns its path. */
export function writeTemp(text: string | Buffer, name = `f${++counter}.yaml`): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** Checks YAML text as a file named `t.yaml` and returns each diagnostic as `t.yaml:L:C: path: message`. */
export async function lint(text: string, opts: LoadOptions = {}): Promise<string[]> {
  const file = writeTemp(text);
  const result = await checkFile(file, { env: {}, ...opts });
  return result.diagnostics.map((d) => formatDiagnostic({ ...d, file: 't.yaml' }));
}

/** A minimal valid file around the given DNS records (each a YAML flow map, one per line from line 7). */
export function zoneWith(records: string[], zone = 'example.com'): string {
  return [
    'version: 1',
    'zones:',
    `  - name: ${zone}`,
    '    account: 0123456789abcdef0123456789abcdef',
    '    dns:',
    '      records:',
    ...records.map((r) => `        - ${r}`),
    '',
  ].join('\n');
}

/** Line number (1-based) of the n-th record in zoneWith(). */
export const recordLine = (n: number) => 7 + n;

/** `line:col` (1-based) of the first occurrence of `needle` in `text`, after `from` when given. */
export function pos(text: string, needle: string, from = ''): string {
  const start = from ? text.indexOf(from) : 0;
  const at = text.indexOf(needle, start);
  if (start < 0 || at < 0) throw new Error(`${needle} not found`);
  const before = text.slice(0, at).split('\n');
  return `${before.length}:${before[before.length - 1].length + 1}`;
}
