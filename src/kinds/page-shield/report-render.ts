/**
 * Renders a Page Shield report as text (aligned columns for a terminal), Markdown (for a PR comment
 * or a CI summary) or JSON (the report object itself; stable, documented in docs/kinds/page-shield.md). Pure.
 */
import type { PageShieldReport, ReportConnection, ReportCookie, ReportScript } from './report.js';

export type ReportFormat = 'text' | 'json' | 'markdown';

const dash = '-';
const reportedCell = (r: { reported_malicious: string[]; malicious_categories: string[] }) =>
  r.reported_malicious.length === 0
    ? dash
    : r.reported_malicious.join('+') +
      (r.malicious_categories.length ? ` (${r.malicious_categories.join(', ')})` : '');
const scoreCell = (s: ReportScript) => (s.js_integrity_score === null ? '?' : String(s.js_integrity_score));
const flag = (v: boolean | null) => (v === null ? '?' : v ? 'yes' : 'no');

const SCRIPT_HEAD = ['SCORE', 'STATUS', 'REPORTED MALICIOUS', 'URL', 'FIRST PAGE', 'LAST SEEN'];
const scriptRow = (s: ReportScript) => [
  scoreCell(s),
  s.status,
  reportedCell(s),
  s.url,
  s.first_page_url ?? dash,
  s.last_seen_at ?? dash,
];
const CONNECTION_HEAD = ['STATUS', 'REPORTED MALICIOUS', 'URL', 'FIRST PAGE', 'LAST SEEN'];
const connectionRow = (c: ReportConnection) => [
  c.status,
  reportedCell(c),
  c.url,
  c.first_page_url ?? dash,
  c.last_seen_at ?? dash,
];
const COOKIE_HEAD = ['HOST', 'NAME', 'TYPE', 'SECURE', 'HTTPONLY', 'SAMESITE', 'FIRST PAGE'];
const cookieRow = (c: ReportCookie) => [
  c.host ?? dash,
  c.name,
  c.type ?? dash,
  flag(c.secure),
  flag(c.http_only),
  c.same_site ?? dash,
  c.first_page_url ?? dash,
];

interface Section {
  title: string;
  head: string[];
  rows: string[][];
  empty: string;
}

function sections(r: PageShieldReport): Section[] {
  return [
    {
      title: `Malicious scripts (js_integrity_score below 10): ${r.summary.malicious_scripts}`,
      head: SCRIPT_HEAD,
      rows: r.scripts.malicious.map(scriptRow),
      empty: 'none',
    },
    {
      title: `Other scripts: ${r.summary.clean_scripts}`,
      head: SCRIPT_HEAD,
      rows: r.scripts.clean.map(scriptRow),
      empty: 'none',
    },
    {
      title: `Scripts without a score (unknown, not counted as malicious): ${r.summary.unknown_scripts}`,
      head: SCRIPT_HEAD,
      rows: r.scripts.unknown.map(scriptRow),
      empty: 'none',
    },
    {
      title: `Connections: ${r.summary.connections} (${r.summary.reported_malicious_connections} reported malicious)`,
      head: CONNECTION_HEAD,
      rows: r.connections.map(connectionRow),
      empty: 'none',
    },
    {
      title: `Cookies: ${r.summary.cookies}`,
      head: COOKIE_HEAD,
      rows: r.cookies.map(cookieRow),
      empty: 'none',
    },
  ];
}

function header(r: PageShieldReport): string {
  return `Page Shield report for ${r.zone.name} (${r.zone.id}), status ${r.statuses.join(', ')}`;
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

function summaryLine(r: PageShieldReport): string {
  const s = r.summary;
  return (
    `${count(s.scripts, 'script')}: ${s.malicious_scripts} malicious, ${s.clean_scripts} clean, ` +
    `${s.unknown_scripts} unknown score, ${s.reported_malicious_scripts} reported malicious; ` +
    `${count(s.connections, 'connection')}, ${count(s.cookies, 'cookie')}`
  );
}

function textTable(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    '  ' +
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)];
}

/** Markdown cells must not break the table: pipes escaped, newlines flattened. */
const mdCell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

function markdownTable(head: string[], rows: string[][]): string[] {
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(mdCell).join(' | ')} |`),
  ];
}

export function renderReport(r: PageShieldReport, format: ReportFormat): string {
  if (format === 'json') return JSON.stringify(r, null, 2);
  const out: string[] = [];
  if (format === 'markdown') {
    out.push(`## ${header(r)}`, '', summaryLine(r));
    for (const s of sections(r)) {
      out.push('', `### ${s.title}`, '');
      out.push(...(s.rows.length ? markdownTable(s.head, s.rows) : [`_${s.empty}_`]));
    }
    return out.join('\n');
  }
  out.push(header(r), summaryLine(r));
  for (const s of sections(r)) {
    out.push('', s.title);
    out.push(...(s.rows.length ? textTable(s.head, s.rows) : [`  ${s.empty}`]));
  }
  return out.join('\n');
}
