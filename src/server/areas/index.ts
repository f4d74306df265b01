/**
 * The registry of API areas. Adding an area is one import and one entry here (order matters
 * only for fixtures: an area's loaders run after those listed before it). See ../ARCHITECTURE.md.
 */
import type { AreaModule } from '../area.js';
import { dnsArea } from './dns/index.js';
import { loadBalancingArea } from './load-balancing/index.js';
import { logpushArea } from './logpush/index.js';
import { notificationsArea } from './notifications/index.js';
import { pageShieldArea } from './page-shield/index.js';
import { wafArea } from './waf/index.js';
import { zonesArea } from './zones/index.js';

export const AREA_MODULES: readonly AreaModule[] = [
  zonesArea,
  dnsArea,
  // a new area: its folder under areas/ and one line here
  pageShieldArea,
  logpushArea,
  wafArea,
  loadBalancingArea,
  notificationsArea,
];
