/**
 * `dns.ignore` patterns: live records they match are never updated or purged (unless the file names
 * their name and type). `name` and `content` are globs (`*` any run, `?` one character), matched
 * case-insensitively against the relative name (`@` for the apex) and the FQDN; `type` is exact.
 */
import { relativeName, type LiveRecord } from './normalize.js';

export interface IgnorePattern {
  name?: string;
  type?: string;
  content?: string;
}

const cache = new Map<string, RegExp>();

export function globToRegExp(glob: string): RegExp {
  let re = cache.get(glob);
  if (!re) {
    const body = glob
      .toLowerCase()
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.');
    re = new RegExp(`^${body}$`);
    cache.set(glob, re);
  }
  return re;
}

export function isIgnored(rec: LiveRecord, zone: string, patterns: IgnorePattern[]): boolean {
  return patterns.some((p) => {
    if (p.type && p.type.toUpperCase() !== rec.type) return false;
    if (p.name) {
      const re = globToRegExp(p.name.replace(/\.$/, ''));
      if (!re.test(relativeName(rec.name, zone)) && !re.test(rec.name)) return false;
    }
    if (p.content && !globToRegExp(p.content).test(rec.value.toLowerCase())) return false;
    return true;
  });
}
