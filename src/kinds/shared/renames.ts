/**
 * `renamed_from: OLD` on an object whose identity is its name (a Page Shield policy's description,
 * a Logpush job's or a notification policy's name, a DNS record's name): the file's checks of it,
 * shared by the kinds, and the one rule of its planning (docs/plan-and-apply.md, "Renames").
 *
 * At plan time a kind pairs the desired object with the live object named OLD and updates it in
 * place (same id: the object never disappears, so there is no moment without the CSP policy, the
 * log delivery or the alert). The kind decides what "named OLD" means for its objects; this file
 * decides what the three possible live states mean.
 */
import type { ValidateContext } from '../../core/kind.js';
import { UserError } from '../../errors.js';

/** One desired object of a list, as the file's checks of `renamed_from` see it. */
export interface RenameCandidate {
  /** the object's identity as written (description or name) */
  identity: string;
  /** the value of `renamed_from`, when the object has one */
  renamedFrom?: string;
  /** dotted path of the object in the file */
  path: string;
  /**
   * A key the identities are compared under (the DNS kind: the record type, so that `www A`
   * renamed from `old` and `old CNAME` do not collide); objects with different groups never collide.
   */
  group?: string;
}

/**
 * The checks of one list (one zone's policies, jobs or records; one account's notifications): a
 * `renamed_from` must differ from the object's own identity, must not be the identity of another
 * object of the list (that object would be both kept and renamed away), and must not be given by
 * two objects (two objects cannot both take over one live object). Errors at the `renamed_from` key.
 * `same` compares identities (exact by default; DNS names compare without case).
 */
export function checkRenames(
  items: RenameCandidate[],
  noun: string,
  ctx: Pick<ValidateContext, 'error'>,
  same: (a: string) => string = (a) => a,
): void {
  const key = (group: string | undefined, identity: string) => `${group ?? ''}\u0000${same(identity)}`;
  const byIdentity = new Map<string, string>();
  for (const item of items) {
    const k = key(item.group, item.identity);
    if (!byIdentity.has(k)) byIdentity.set(k, item.path);
  }
  const byRenamedFrom = new Map<string, string>();
  for (const item of items) {
    if (item.renamedFrom === undefined) continue;
    const at = `${item.path}.renamed_from`;
    if (same(item.renamedFrom) === same(item.identity)) {
      ctx.error(
        at,
        `renamed_from "${item.renamedFrom}" is the ${noun}'s own name: give the old name, or remove it`,
      );
      continue;
    }
    const k = key(item.group, item.renamedFrom);
    const kept = byIdentity.get(k);
    if (kept !== undefined) {
      ctx.error(
        at,
        `renamed_from "${item.renamedFrom}" names another ${noun} of this file (${kept}), which is kept: ` +
          'one live object cannot be both kept and renamed',
      );
      continue;
    }
    const other = byRenamedFrom.get(k);
    if (other !== undefined) {
      ctx.error(
        at,
        `renamed_from "${item.renamedFrom}" is also given by ${other}: only one ${noun} can take it over`,
      );
      continue;
    }
    byRenamedFrom.set(k, item.path);
  }
}

/**
 * What a desired object with `renamed_from` is paired with, from what lives under its new name
 * (`current`) and under the old one (`old`):
 * - only the old one lives: the rename (an in-place update of `old`);
 * - only the new one lives, or neither: a warning (the rename may already be applied, or the old
 *   object be gone), and the object is planned by its new name as any other;
 * - both live: a plan error naming both, since renaming would give two live objects one name
 *   (and purge would delete the other) or leave one of them unmanaged: the user decides which goes.
 */
export function resolveRename<L extends { id: string | number }>(input: {
  current: L | undefined;
  old: L | undefined;
  /** `policy "new"`, as the error and the warning name the object */
  what: string;
  from: string;
  /** `file:line:col` of the object (for the error), when known */
  at?: string;
  warn?: (message: string) => void;
}): L | undefined {
  const { current, old, what, from, at } = input;
  if (old && current) {
    throw new UserError(
      `${at ? `${at}: ` : ''}${what}: renamed_from "${from}" (id ${old.id}) and the new name (id ${current.id}) ` +
        'both exist live: delete one of them, or remove renamed_from and let the file manage the new one',
    );
  }
  if (old) return old;
  input.warn?.(
    `${at ? `${at}: ` : ''}${what}: renamed_from "${from}" matches nothing live ` +
      `(already renamed?); it is planned by its new name`,
  );
  return undefined;
}

/** The address a rename is shown with: `policy "old" -> "new"`. */
export function renameAddress(noun: string, from: string, to: string): string {
  return `${noun} "${from}" -> "${to}"`;
}
