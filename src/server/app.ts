/** The state shared by every handler of one running server. */
import type { AreaModule } from './area.js';
import { CredentialStore } from './auth/credentials.js';
import { PermissionAreas } from './auth/permission-areas.js';
import { ByteCache } from './http/byte-cache.js';
import type { Db } from './store/db.js';
import type { ZoneRow } from './store/core.js';

export class App {
  readonly credentials: CredentialStore;
  /** encoded answers of cacheable GET routes, valid while dataVersion() is unchanged */
  readonly responses = new ByteCache();
  /** the permission areas the running areas declare (derived, never listed by hand) */
  readonly permissionAreas: PermissionAreas;

  constructor(
    readonly db: Db,
    readonly areas: readonly AreaModule[],
  ) {
    this.credentials = new CredentialStore(db);
    this.permissionAreas = new PermissionAreas(areas);
  }

  /** Lets every area set up a new zone; call inside the creating transaction. */
  zoneCreated(zone: ZoneRow): void {
    for (const a of this.areas) a.onZoneCreated?.(this, zone);
  }

  /** Lets every area drop a zone's rows; call inside the deleting transaction, before the zone row goes. */
  zoneDeleted(zone: ZoneRow): void {
    for (const a of this.areas) a.onZoneDeleted?.(this, zone);
  }
}
