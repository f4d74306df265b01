/**
 * The Page Shield report (`zoneplan page-shield report`) as data: pure, built from what was read, so
 * its order is tested without a server. Order: malicious scripts first (lowest score first), then
 * clean scripts, then scripts without a score apart ("unknown": never counted as malicious);
 * connections reported malicious first; cookies by host and name.
 */
import {
  byScoreThenUrl,
  classifyScript,
  type DetectedConnection,
  type DetectedCookie,
  type DetectedScript,
} from './scripts.js';

export interface PageShieldReport {
  zone: { id: string; name: string };
  statuses: string[];
  summary: {
    scripts: number;
    malicious_scripts: number;
    clean_scripts: number;
    unknown_scripts: number;
    reported_malicious_scripts: number;
    connections: number;
    reported_malicious_connections: number;
    cookies: number;
  };
  scripts: { malicious: ReportScript[]; clean: ReportScript[]; unknown: ReportScript[] };
  connections: ReportConnection[];
  cookies: ReportCookie[];
}

export interface ReportScript {
  id: string;
  url: string;
  status: string;
  js_integrity_score: number | null;
  /** `url`, `domain`, both or none: the service's own reputation lists, distinct from the score */
  reported_malicious: string[];
  malicious_categories: string[];
  first_page_url: string | null;
  last_seen_at: string | null;
}

export interface ReportConnection {
  id: string;
  url: string;
  status: string;
  reported_malicious: string[];
  malicious_categories: string[];
  first_page_url: string | null;
  last_seen_at: string | null;
}

export interface ReportCookie {
  id: string;
  name: string;
  host: string | null;
  type: string | null;
  secure: boolean | null;
  http_only: boolean | null;
  same_site: string | null;
  first_page_url: string | null;
  last_seen_at: string | null;
}

function reported(item: { url_reported_malicious?: boolean; domain_reported_malicious?: boolean }): string[] {
  const out: string[] = [];
  if (item.url_reported_malicious) out.push('url');
  if (item.domain_reported_malicious) out.push('domain');
  return out;
}

function categories(...lists: (string[] | undefined)[]): string[] {
  return [...new Set(lists.flatMap((l) => l ?? []))].sort();
}

function toReportScript(s: DetectedScript): ReportScript {
  return {
    id: s.id,
    url: s.url,
    status: s.status ?? 'active',
    js_integrity_score: s.js_integrity_score ?? null,
    reported_malicious: reported(s),
    malicious_categories: categories(s.malicious_url_categories),
    first_page_url: s.first_page_url ?? null,
    last_seen_at: s.last_seen_at ?? null,
  };
}

const byUrl = (a: { url: string; id: string }, b: { url: string; id: string }) =>
  a.url.localeCompare(b.url) || a.id.localeCompare(b.id);

/** De-duplicates by id: the same item can come back under two status filters. */
function unique<T extends { id: string }>(items: T[]): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(item.id)) seen.set(item.id, item);
  return [...seen.values()];
}

export function buildReport(input: {
  zone: { id: string; name: string };
  statuses: string[];
  scripts: DetectedScript[];
  connections: DetectedConnection[];
  cookies: DetectedCookie[];
}): PageShieldReport {
  const scripts = unique(input.scripts);
  const malicious = scripts.filter((s) => classifyScript(s) === 'malicious').sort(byScoreThenUrl);
  const clean = scripts.filter((s) => classifyScript(s) === 'clean').sort(byUrl);
  const unknown = scripts.filter((s) => classifyScript(s) === 'unknown').sort(byUrl);

  const connections = unique(input.connections)
    .map((c): ReportConnection => ({
      id: c.id,
      url: c.url,
      status: c.status ?? 'active',
      reported_malicious: reported(c),
      malicious_categories: categories(c.malicious_url_categories, c.malicious_domain_categories),
      first_page_url: c.first_page_url ?? null,
      last_seen_at: c.last_seen_at ?? null,
    }))
    .sort(
      (a, b) =>
        Number(b.reported_malicious.length > 0) - Number(a.reported_malicious.length > 0) || byUrl(a, b),
    );

  const cookies = unique(input.cookies)
    .map((c): ReportCookie => ({
      id: c.id,
      name: c.name,
      host: c.host ?? null,
      type: c.type ?? null,
      secure: c.secure_attribute ?? null,
      http_only: c.http_only_attribute ?? null,
      same_site: c.same_site_attribute ?? null,
      first_page_url: c.first_page_url ?? null,
      last_seen_at: c.last_seen_at ?? null,
    }))
    .sort(
      (a, b) =>
        (a.host ?? '').localeCompare(b.host ?? '') ||
        a.name.localeCompare(b.name) ||
        a.id.localeCompare(b.id),
    );

  const all = [...malicious, ...clean, ...unknown].map(toReportScript);
  return {
    zone: input.zone,
    statuses: input.statuses,
    summary: {
      scripts: scripts.length,
      malicious_scripts: malicious.length,
      clean_scripts: clean.length,
      unknown_scripts: unknown.length,
      reported_malicious_scripts: all.filter((s) => s.reported_malicious.length > 0).length,
      connections: connections.length,
      reported_malicious_connections: connections.filter((c) => c.reported_malicious.length > 0).length,
      cookies: cookies.length,
    },
    scripts: {
      malicious: malicious.map(toReportScript),
      clean: clean.map(toReportScript),
      unknown: unknown.map(toReportScript),
    },
    connections,
    cookies,
  };
}
