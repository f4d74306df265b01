/**
 * Every relative Markdown link in README.md and docs/ resolves: the file (or folder) it names exists,
 * and a `#anchor` names a heading of the target page, by GitHub's slug rules. The docs are split over
 * many pages that link to each other, so a renamed heading or a moved page would otherwise leave
 * dead links that nobody notices until a reader clicks one.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

function markdownFiles(): string[] {
  const docs = join(ROOT, 'docs');
  const pages = readdirSync(docs, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(docs, name));
  return [join(ROOT, 'README.md'), ...pages.sort()];
}

/** The lines of a page outside fenced code blocks, with their 1-based line numbers. */
function proseLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | undefined;
  text.split('\n').forEach((line, index) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker !== undefined && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      return;
    }
    if (fence === undefined) out.push({ line: index + 1, text: line });
  });
  return out;
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link keeps its text
    .replace(/`([^`]*)`/g, '$1') // code spans keep their content
    .replace(/<[^>]+>/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a page's headings; a repeated heading gets -1, -2, ... as on GitHub. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(readFileSync(file, 'utf8'))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text)?.[1];
    if (heading === undefined) continue;
    const slug = githubSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

interface Link {
  file: string;
  line: number;
  target: string;
}

/** Relative links `[text](target)` of a page, outside code blocks and code spans. */
function relativeLinks(file: string): Link[] {
  const links: Link[] = [];
  for (const { line, text } of proseLines(readFileSync(file, 'utf8'))) {
    const prose = text.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = match[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, ...
      links.push({ file, line, target });
    }
  }
  return links;
}

/** Why a link does not resolve, or undefined when it does. */
function brokenReason(link: Link): string | undefined {
  const [pathPart, anchor] = link.target.split('#', 2) as [string, string | undefined];
  const target = pathPart === '' ? link.file : resolve(dirname(link.file), decodeURIComponent(pathPart));
  if (!existsSync(target)) return `no file ${relative(ROOT, target)}`;
  if (anchor === undefined || anchor === '') return undefined;
  if (!target.endsWith('.md') || statSync(target).isDirectory()) return undefined;
  const anchors = anchorsOf(target);
  return anchors.has(decodeURIComponent(anchor).toLowerCase())
    ? undefined
    : `no heading #${anchor} in ${relative(ROOT, target)}`;
}

describe('documentation links', () => {
  it('GitHub slugs: punctuation dropped, code spans kept, spaces to hyphens', () => {
    expect(githubSlug('Plan, apply, drift')).toBe('plan-apply-drift');
    expect(githubSlug('`${env:NAME}`: secrets and per-environment values')).toBe(
      'envname-secrets-and-per-environment-values',
    );
    expect(githubSlug('`zoneplan page-shield report ZONE`')).toBe('zoneplan-page-shield-report-zone');
    expect(githubSlug('Page Shield (`zones[].page_shield`)')).toBe('page-shield-zonespage_shield');
  });

  it('README.md and docs/ exist and link to each other', () => {
    const files = markdownFiles().map((file) => relative(ROOT, file));
    expect(files).toContain('docs/README.md');
    const readmeTargets = relativeLinks(join(ROOT, 'README.md')).map((link) => link.target);
    expect(readmeTargets).toContain('docs/README.md');
  });

  it('every relative link in README.md and docs/**/*.md resolves to a file and heading', () => {
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      for (const link of relativeLinks(file)) {
        const reason = brokenReason(link);
        if (reason !== undefined)
          broken.push(`${relative(ROOT, file)}:${link.line}: (${link.target}) ${reason}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
