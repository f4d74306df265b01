/**
 * `zoneplan export --out-dir DIR`: one file per zone, `DIR/<zone>.yaml`, for the zones of each
 * `--account` and those `--zone` names or matches, and `DIR/<account id>.yaml` with an account's
 * own configuration (its account-level kinds) when one of those is exported. Every file is made in
 * memory first; the directory is written only when every one of them could be made and none would
 * replace a file without `--force` (the rules of `--out`, src/write-output-file.ts), and each is
 * written beside its path and renamed into place, so a path holds the old file or the whole new one.
 */
import { lstatSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { selectKinds } from '../core/export/run.js';
import type { Requester } from '../core/runtime.js';
import { UserError } from '../errors.js';
import { allKinds } from '../kinds/index.js';
import { makeDirectory } from '../make-directory.js';
import { checkOutputPath, writeOutputFile } from '../write-output-file.js';
import { outputRules, summary, tellVariables, type ExportCommand, type ExportOnce } from './export-run.js';
import { resolveZones } from './export-zones.js';

/** Refuses a --out-dir that is not a directory, before the target is read. */
export function checkOutDir(cmd: Pick<ExportCommand, 'outDir' | 'globals'>): void {
  if (cmd.outDir === undefined) return;
  if (cmd.outDir.trim() === '')
    throw new UserError('--out-dir needs a directory path (it was given an empty one)');
  let info;
  try {
    info = lstatSync(resolve(cmd.globals.io.cwd, cmd.outDir));
  } catch {
    return; // made when the files are written
  }
  if (!info.isDirectory()) throw new UserError(`--out-dir ${cmd.outDir} exists and is not a directory`);
}

export async function exportToDirectory(
  cmd: ExportCommand,
  client: Requester,
  once: ExportOnce,
): Promise<void> {
  const { output: out } = cmd;
  const dir = resolve(cmd.globals.io.cwd, cmd.outDir!);
  const { kinds } = selectKinds(allKinds(), cmd.kinds);
  const keysOf = (scope: string) => kinds.filter((k) => k.def.scope === scope).map((k) => k.def.key);
  const [zoneKinds, accountKinds] = [keysOf('zone'), keysOf('account')];
  const zones =
    zoneKinds.length === 0
      ? []
      : await resolveZones(client, { zones: cmd.zones, accountsWhole: cmd.accounts });
  const accounts = accountKinds.length === 0 ? [] : cmd.accounts;
  if (zones.length === 0 && accounts.length === 0)
    throw new UserError(
      '--out-dir: nothing to write (name zones with --zone or --account, or other --kinds)',
    );

  // a zone name is a file name here: one the API lists with a path separator is refused, not followed
  const unsafe = zones.filter((z) => !/^[a-z0-9_-][a-z0-9_.-]*$/.test(z));
  if (unsafe.length > 0)
    throw new UserError(`--out-dir: a zone name that cannot be a file name: ${unsafe.join(', ')}`);
  const files: { name: string; text: string; summary: string }[] = [];
  const variables = new Map<string, { name: string; describe: string }>();
  const owners = [
    ...zones.map((z) => ({ name: `${z}.yaml`, owners: { zones: [z], accounts: [], kinds: zoneKinds } })),
    ...accounts.map((a) => ({
      name: `${a}.yaml`,
      owners: { zones: [], accounts: [a], kinds: accountKinds },
    })),
  ];
  for (const { name, owners: o } of owners) {
    // --kinds as given decides whether a kind that cannot be read fails the export (strict)
    const result = await once(cmd.kinds ? o : { zones: o.zones, accounts: o.accounts }, dir);
    for (const note of result.notes) out.warn(note);
    for (const v of result.variables) variables.set(v.name, v);
    files.push({ name, text: result.text, summary: summary(result.counts) });
  }
  const rules = outputRules(cmd, '--out-dir');
  // every refusal at once, so one run says which files are in the way
  const refused: string[] = [];
  for (const f of files) {
    try {
      checkOutputPath(join(cmd.outDir!, f.name), rules);
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      refused.push(err.message);
    }
  }
  if (refused.length > 0) throw new UserError(`nothing written:\n${refused.join('\n')}`);
  makeDirectory(dir);
  for (const f of files) {
    const path = join(cmd.outDir!, f.name);
    writeOutputFile(path, f.text, rules);
    out.info(`wrote ${path} (${f.summary})`);
  }
  tellVariables(out, [...variables.values()]);
}
