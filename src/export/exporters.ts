/**
 * The exporters of the kinds, keyed by kind key (the key of the kind's value in the file). One line
 * per kind; a kind without an exporter is not exported (the driver says so). This registry may later
 * become an optional `export` member of the kind runtime interface (src/core/runtime.ts).
 */
import { exportDns } from '../kinds/dns/export.js';
import { exportLoadBalancing } from '../kinds/load-balancing/export.js';
import { exportLogpush } from '../kinds/logpush/export.js';
import { exportPageShield } from '../kinds/page-shield/export.js';
import { exportWaf } from '../kinds/waf/export.js';
import type { Exporter } from './types.js';

const exporters = new Map<string, Exporter>();

/** Registers the exporter of a kind; a second exporter for the same key is a bug and throws. */
export function registerExporter(key: string, exporter: Exporter): void {
  if (exporters.has(key)) throw new Error(`an exporter for ${key} is registered twice`);
  exporters.set(key, exporter);
}

registerExporter('dns', exportDns);
registerExporter('page_shield', exportPageShield);
registerExporter('logpush', exportLogpush);
registerExporter('waf', exportWaf);
registerExporter('load_balancing', exportLoadBalancing);

export function exporterFor(key: string): Exporter | undefined {
  return exporters.get(key);
}
