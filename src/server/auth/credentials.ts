/**
 * Credentials as stored (only a SHA-256 of each secret is kept) and the authentication of a
 * request's headers. Lookups are cached per header value: the credential set changes only when
 * fixtures load, which clears the cache.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { dataVersion, type Db } from '../store/db.js';
import { secretHash } from '../store/ids.js';
import { ApiError, ERR } from '../http/envelope.js';
import type { Area } from '../http/router.js';
import type { Principal, Scope } from './principal.js';

export interface CredentialInput {
  kind: 'token' | 'key';
  /** the token value, or the global key */
  secret: string;
  email?: string;
  label: string;
  zones: Scope;
  accounts: Scope;
  permissions: Partial<Record<Area, 'read' | 'edit'>>;
  source: 'fixtures' | 'dev';
}

function keyHash(email: string, key: string): string {
  return secretHash(`${email.trim().toLowerCase()}\0${key}`);
}

export function saveCredential(db: Db, c: CredentialInput): void {
  const hash = c.kind === 'token' ? secretHash(c.secret) : keyHash(c.email ?? '', c.secret);
  db.prepare(
    `INSERT INTO credentials (hash, kind, email, label, zones, accounts, permissions, source)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(hash) DO UPDATE SET kind = excluded.kind, email = excluded.email, label = excluded.label,
       zones = excluded.zones, accounts = excluded.accounts, permissions = excluded.permissions, source = excluded.source`,
  ).run(
    hash,
    c.kind,
    c.email ?? null,
    c.label,
    JSON.stringify(c.zones),
    JSON.stringify(c.accounts),
    JSON.stringify(c.permissions),
    c.source,
  );
}

export function countCredentials(db: Db, source?: 'fixtures' | 'dev'): number {
  const row = source
    ? db.prepare('SELECT COUNT(*) AS n FROM credentials WHERE source = ?').get(source)
    : db.prepare('SELECT COUNT(*) AS n FROM credentials').get();
  return (row as { n: number }).n;
}

export function deleteCredentials(db: Db, source: 'fixtures' | 'dev'): void {
  db.prepare('DELETE FROM credentials WHERE source = ?').run(source);
}

interface Row {
  kind: 'token' | 'key';
  label: string;
  zones: string;
  accounts: string;
  permissions: string;
}

export class CredentialStore {
  private readonly cache = new Map<string, Principal | null>();
  private readonly byHash;

  private readonly devByHash;

  private version = '';

  constructor(private readonly db: Db) {
    this.byHash = db.prepare(
      'SELECT kind, label, zones, accounts, permissions FROM credentials WHERE hash = ?',
    );
    this.devByHash = db.prepare("SELECT 1 FROM credentials WHERE hash = ? AND source = 'dev'");
  }

  /** True while `token` is the dev token of this store (fixtures with credentials remove it). */
  isDevToken(token: string): boolean {
    return this.devByHash.get(secretHash(token)) !== undefined;
  }

  invalidate(): void {
    this.cache.clear();
  }

  /**
   * The principal behind a request's headers. Throws 9106 when no credential is sent and 401
   * 10000 when the one sent is unknown. A bearer token wins over an e-mail/key pair.
   */
  authenticate(headers: IncomingHttpHeaders): Principal {
    // another process may have loaded fixtures into the same file: start afresh when anything changed
    const version = dataVersion(this.db);
    if (version !== this.version) {
      this.cache.clear();
      this.version = version;
    }
    const auth = headers.authorization;
    const email = headers['x-auth-email'];
    const key = headers['x-auth-key'];
    let cacheKey: string;
    let hash: string;
    if (typeof auth === 'string' && auth.trim() !== '') {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
      if (!m)
        throw ApiError.of(
          ERR.badAuth.status,
          ERR.badAuth.code,
          'Authentication error: malformed Authorization header',
        );
      cacheKey = 't\0' + m[1];
      const cached = this.cache.get(cacheKey);
      if (cached) return cached;
      hash = secretHash(m[1]);
    } else if (typeof email === 'string' && typeof key === 'string' && email !== '' && key !== '') {
      cacheKey = 'k\0' + email + '\0' + key;
      const cached = this.cache.get(cacheKey);
      if (cached) return cached;
      hash = keyHash(email, key);
    } else {
      throw ApiError.of(ERR.missingAuth.status, ERR.missingAuth.code, ERR.missingAuth.message);
    }
    const row = this.byHash.get(hash) as Row | undefined;
    if (!row || (row.kind === 'token') !== cacheKey.startsWith('t')) {
      throw ApiError.of(ERR.badAuth.status, ERR.badAuth.code, ERR.badAuth.message);
    }
    const principal: Principal = {
      id: hash.slice(0, 32),
      kind: row.kind,
      label: row.label,
      zones: JSON.parse(row.zones) as Scope,
      accounts: JSON.parse(row.accounts) as Scope,
      permissions: JSON.parse(row.permissions) as Principal['permissions'],
    };
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(cacheKey, principal);
    return principal;
  }
}
