/**
 * The work of `zoneplan fmt`: every file is read and formatted before any is written, so a file
 * that cannot be formatted (invalid YAML) stops the run with its file:line:col and no file is
 * changed. A changed file is replaced atomically (a new file beside it, flushed, renamed over it,
 * with the old file's mode), so it holds the old text or the whole new one, never half of it.
 */
import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { replaceAtomically } from '../write-output-file.js';
import { ConfigError, UserError, type Diagnostic } from '../errors.js';
import { readUserFile } from '../read-user-file.js';
import { expandPaths } from '../config/desired-files.js';
import { formatYaml } from '../config/format-yaml.js';
import { composeSchema } from '../config/schema.js';
import { withReferencesInline } from '../config/key-order.js';
import { MAX_FILE_BYTES } from '../config/yaml-source.js';
import type { GlobalOptions } from './globals.js';
import type { Output } from './output.js';
import type { FmtOptions } from './fmt.js';

interface Formatted {
  file: string;
  text: string;
  changed: boolean;
}

export async function runFmt(
  paths: string[],
  opts: FmtOptions,
  globals: GlobalOptions,
  out: Output,
): Promise<void> {
  const { cwd } = globals.io;
  const files = await expandPaths(paths, cwd);
  const place = [withReferencesInline(composeSchema())];
  const done: Formatted[] = [];
  const problems: Diagnostic[] = [];
  for (const file of files) {
    if (/\.json$/i.test(file)) {
      // a JSON desired-state file is read as it is; its layout is JSON's, not YAML's
      out.warn(`${file}: fmt formats YAML files; a JSON file is left as it is`);
      continue;
    }
    const text = await readText(file, cwd);
    const result = formatYaml(file, text, place);
    if ('diagnostics' in result) problems.push(...result.diagnostics);
    else if ('notDesired' in result)
      out.warn(`${file}: not a desired-state file (no top-level \`version:\`); left as it is`);
    else done.push({ file, text: result.text, changed: result.text !== text });
  }
  if (problems.length > 0) throw new FmtRefused(problems);
  const changed = done.filter((f) => f.changed);
  if (opts.check) {
    for (const f of changed) out.out(f.file);
    if (changed.length > 0) {
      globals.run.exitCode = 1;
      out.info(
        `${count(changed.length)} not formatted; run \`zoneplan fmt\` on ${changed.length === 1 ? 'it' : 'them'}`,
      );
    }
    return;
  }
  for (const f of changed) {
    replaceFile(resolve(cwd, f.file), f.text, f.file);
    out.out(f.file);
  }
  out.info(`${count(changed.length)} formatted, ${done.length - changed.length} already formatted`);
}

const count = (n: number) => `${n} file${n === 1 ? '' : 's'}`;

/** The diagnostics of files fmt cannot read as YAML (or nested past the limit); nothing was written. */
class FmtRefused extends ConfigError {
  constructor(diagnostics: Diagnostic[]) {
    super(diagnostics);
    const files = new Set(diagnostics.map((d) => d.file)).size;
    this.message = `nothing was formatted: ${files === 1 ? 'a file' : `${files} files`} cannot be read as YAML (above)`;
  }
}

async function readText(file: string, cwd: string): Promise<string> {
  const bytes = await readUserFile(resolve(cwd, file), MAX_FILE_BYTES);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new UserError(`${file}: is not UTF-8 text; nothing was formatted`);
  }
}

/**
 * Replaces the file at `path` (through a symbolic link, the file it points to: the link stays)
 * with `text`; a failure leaves it as it was and says so.
 */
function replaceFile(path: string, text: string, shown: string): void {
  const target = realpathSync(path);
  const mode = statSync(target).mode & 0o7777;
  const failed = replaceAtomically(target, text, mode);
  if (failed) throw new UserError(`${shown}: cannot write it (${failed}); it is unchanged`);
}
