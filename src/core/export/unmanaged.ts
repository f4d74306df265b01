/**
 * `export --unmanaged-by FILES`: per owner and kind, the part of the live state that the files do
 * not manage. Which live objects the files manage is the kind's to say (`KindExport.unmanaged`,
 * with its planner's matching): the core only finds the files' value for the owner and kind.
 */
import type { DesiredState } from '../../config/model.js';
import type { KindDefinition } from '../kind.js';
import type { OwnerRef } from '../runtime.js';

export interface ManagedBy {
  /** the files as plan loads them (one desired state) */
  desired: DesiredState;
  /** the paths as given, for the header and the notes */
  files: string[];
}

/** The files' (built) value of `key` for the owner; undefined when they do not set it. */
function desiredValue(desired: DesiredState, owner: OwnerRef, key: string): unknown {
  const entry =
    owner.scope === 'zone'
      ? desired.zones.find((z) => z.name.toLowerCase() === owner.name.toLowerCase())
      : desired.accounts.find((a) => a.id.toLowerCase() === owner.name.toLowerCase());
  return entry?.[key];
}

export type Unmanaged =
  /** the files do not set the kind for the owner: everything live is unmanaged */
  | { whole: true; live: unknown }
  /** only `live` is unmanaged (nothing when undefined); `managed` objects were left out */
  | { whole: false; live?: unknown; managed: number; byKind: boolean };

export function unmanagedPart(
  kind: KindDefinition,
  owner: OwnerRef,
  live: unknown,
  managedBy: ManagedBy,
): Unmanaged {
  const wanted = desiredValue(managedBy.desired, owner, kind.key);
  if (wanted === undefined) return { whole: true, live };
  const unmanaged = kind.export?.unmanaged;
  // a kind without the member is managed as a whole by files that set its key
  if (!unmanaged) return { whole: false, managed: 0, byKind: false };
  return { whole: false, ...unmanaged(live, wanted, owner), byKind: true };
}
