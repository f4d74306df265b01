// The permission areas are declared by the API areas, not listed by hand: the registry is derived
// from AREA_MODULES, a duplicate declaration is refused, and so is a route naming an undeclared area.
import { describe, expect, it } from 'vitest';
import { AREA_MODULES } from '../../src/server/areas/index.js';
import { PermissionAreas } from '../../src/server/auth/permission-areas.js';
import { Router } from '../../src/server/http/router.js';

describe('permission areas', () => {
  it('are derived from the area modules, in registration order', () => {
    const areas = new PermissionAreas(AREA_MODULES);
    expect(areas.names).toEqual([
      'zone',
      'dns',
      'page_shield',
      'logpush',
      'waf',
      'rulesets',
      'load_balancers',
      'notifications',
    ]);
    expect(areas.names.filter((n) => areas.isTokenOnly(n))).toEqual([
      'page_shield',
      'waf',
      'rulesets',
      'load_balancers',
    ]);
    expect(areas.all('read')).toMatchObject({ zone: 'read', notifications: 'read' });
  });

  it('a new module brings its permission area with it', () => {
    const areas = new PermissionAreas([
      ...AREA_MODULES,
      { name: 'settings', permissions: [{ name: 'zone_settings' }] },
    ]);
    expect(areas.has('zone_settings')).toBe(true);
  });

  it('refuses two modules declaring the same permission area', () => {
    expect(
      () => new PermissionAreas([...AREA_MODULES, { name: 'copy', permissions: [{ name: 'dns' }] }]),
    ).toThrow(/permission area "dns" is declared by both dns and copy/);
  });

  it('a route naming an undeclared area fails when it is added', () => {
    const router = new Router(new PermissionAreas(AREA_MODULES));
    expect(() =>
      router.add({
        method: 'GET',
        path: '/zones/:zone_id/settings',
        area: 'zone_setings',
        handler: () => ({}) as never,
      }),
    ).toThrow(/permission area "zone_setings" is declared by no area/);
    router.add({ method: 'GET', path: '/ips', area: 'public', handler: () => ({}) as never });
  });

  it('every route of every area uses a declared area (the server starts with them)', () => {
    const router = new Router(new PermissionAreas(AREA_MODULES));
    const app = { permissionAreas: new PermissionAreas(AREA_MODULES) } as never;
    for (const a of AREA_MODULES) expect(() => a.routes?.(router, app)).not.toThrow();
  });
});
