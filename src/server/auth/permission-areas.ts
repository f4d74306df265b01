/**
 * The permission areas of tokens and keys (read or edit each). No list is written by hand: each
 * AreaModule declares the permission areas its routes check (`permissions`), and this registry is
 * built from the modules the server runs, so a new area brings its permission with it.
 */

/** One permission area, as an AreaModule declares it. */
export interface PermissionArea {
  /** the name routes use (`area: 'dns'`) and credentials grant (`permissions: {dns: edit}`) */
  name: string;
  /** the real API accepts API tokens only here: e-mail/key pairs are refused with 403 on every route */
  tokenOnly?: boolean;
}

export type Access = 'read' | 'edit';

export class PermissionAreas {
  private readonly byName = new Map<string, PermissionArea>();

  /** Throws when two modules declare the same name: a permission belongs to one area. */
  constructor(modules: readonly { name: string; permissions?: readonly PermissionArea[] }[]) {
    const owner = new Map<string, string>();
    for (const m of modules) {
      for (const p of m.permissions ?? []) {
        const first = owner.get(p.name);
        if (first !== undefined)
          throw new Error(`permission area "${p.name}" is declared by both ${first} and ${m.name}`);
        if (p.name === 'public' || p.name === 'any')
          throw new Error(`area ${m.name}: "${p.name}" is a reserved route area, not a permission area`);
        owner.set(p.name, m.name);
        this.byName.set(p.name, p);
      }
    }
  }

  /** In the order the modules are registered (zone, dns, ...). */
  get names(): string[] {
    return [...this.byName.keys()];
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  isTokenOnly(name: string): boolean {
    return this.byName.get(name)?.tokenOnly === true;
  }

  /** Full rights at one level: every declared area. */
  all(level: Access): Record<string, Access> {
    return Object.fromEntries(this.names.map((n) => [n, level]));
  }
}
