/**
 * `${env:NAME}` values are masked in a plan only in the steps of the entries that held the
 * reference: another record (or a TXT) that holds the same text literally shows it. Logs, the
 * apply report, the journal and errors keep masking the value everywhere.
 */
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliAt, startBed, writeYaml, zoneFile, type Bed } from './helpers.js';

let bed: Bed | undefined;
afterEach(async () => {
  await bed?.close();
  bed = undefined;
});

const ORIGIN = '198.51.100.77';
const LABEL = '(from env ORIGIN)';

describe('masking of ${env:} values in plans', () => {
  it('masks only the field that held the reference; logs, report and journal mask it everywhere', async () => {
    bed = await startBed();
    const file = writeYaml(
      bed.dir,
      'zones.yaml',
      zoneFile('mask.example', [
        "{ name: origin, type: A, content: '${env:ORIGIN}' }",
        `{ name: other, type: A, content: ${ORIGIN} }`,
        `{ name: '@', type: TXT, content: 'origin is ${ORIGIN}' }`,
      ]),
    );
    const env = { ORIGIN };
    const text = await cliAt(bed, ['plan', file], env);
    const json = await cliAt(bed, ['plan', file, '--format', 'json'], env);
    const md = await cliAt(bed, ['plan', file, '--format', 'markdown'], env);
    const saved = await cliAt(bed, ['plan', file, '--out', 'plan.json'], env);
    for (const r of [text, json, md, saved]) expect(r.code, r.stderr).toBe(0);

    expect(text.stdout).toContain(`+ create origin A ${LABEL}`);
    expect(text.stdout).toContain(`+ create other A ${ORIGIN}`);
    expect(text.stdout).toContain(`content: "origin is ${ORIGIN}"`);
    expect(text.stdout).not.toMatch(/origin A 198/);

    expect(md.stdout).toContain(`\`origin A ${LABEL}\``);
    expect(md.stdout).toContain(`\`other A ${ORIGIN}\``);
    expect(md.stdout).toContain(`origin is ${ORIGIN}`);

    for (const doc of [json.stdout, readFileSync(join(bed.dir, 'plan.json'), 'utf8')]) {
      const steps = (JSON.parse(doc) as { steps: { address: string; after: { content?: string } }[] }).steps;
      const by = (name: string) => steps.find((s) => s.address.startsWith(name))!;
      expect(by('origin ').address).toBe(`origin A ${LABEL}`);
      expect(by('origin ').after.content).toBe(LABEL);
      expect(by('other ').after.content).toBe(ORIGIN);
      expect(JSON.stringify(by('@ TXT').after)).toContain(`origin is ${ORIGIN}`);
    }

    // the saved plan (ids redacted per step) still matches a fresh plan, and applies
    const applied = await cliAt(bed, ['apply', 'plan.json', '--auto-approve', '--verbose'], env);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).not.toContain(ORIGIN);
    const report = applied.stdout.slice(applied.stdout.indexOf('Applied'));
    expect(report).toContain('Applied');
    expect(report).not.toContain(ORIGIN);
    for (const f of readdirSync(join(bed.dir, '.zoneplan', 'journal'))) {
      expect(readFileSync(join(bed.dir, '.zoneplan', 'journal', f), 'utf8')).not.toContain(ORIGIN);
    }

    // an error names the value nowhere either
    const bad = writeYaml(
      bed.dir,
      'bad.yaml',
      zoneFile('mask.example', ["{ name: origin, type: A, content: '${env:ORIGIN}', ttl: 7 }"]),
    );
    const failed = await cliAt(bed, ['plan', bad], env);
    expect(failed.code).not.toBe(0);
    expect(failed.stdout + failed.stderr).not.toContain(ORIGIN);
  });

  it('a long env value is masked before a text plan wraps its line (no half of it shows)', async () => {
    bed = await startBed();
    // a DKIM key from env: longer than a line, so the text plan wraps the record's content
    const KEY = 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA' + 'q1w2e3r4t5y6u7i8o9p0'.repeat(12);
    const file = writeYaml(
      bed.dir,
      'dkim.yaml',
      zoneFile('dkim.example', [
        "{ name: sel._domainkey, type: TXT, content: 'v=DKIM1; k=rsa; p=${env:DKIM_KEY}' }",
      ]),
    );
    const r = await cliAt(bed, ['plan', file], { DKIM_KEY: KEY });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('p=(from env DKIM_KEY)');
    for (let at = 0; at + 12 <= KEY.length; at += 6) expect(r.stdout).not.toContain(KEY.slice(at, at + 12));
  });

  it('with several files, the places move with their entries: masked only in the record of the second file that held it', async () => {
    bed = await startBed();
    const dir = join(bed.dir, 'many');
    mkdirSync(dir);
    // were the places of b.yaml left at its own paths, `zones[0].dns.records[1]` would mask a.example's
    // second record and show b.example's: both files have a record at that index holding the text
    writeYaml(
      dir,
      'a.yaml',
      zoneFile('a.example', [
        `{ name: first, type: A, content: ${ORIGIN} }`,
        `{ name: second, type: A, content: ${ORIGIN} }`,
      ]),
    );
    writeYaml(
      dir,
      'b.yaml',
      zoneFile('b.example', [
        `{ name: literal, type: A, content: ${ORIGIN} }`,
        "{ name: origin, type: A, content: '${env:ORIGIN}' }",
      ]),
    );
    const env = { ORIGIN };
    const text = await cliAt(bed, ['plan', dir], env);
    const md = await cliAt(bed, ['plan', dir, '--format', 'markdown'], env);
    const json = await cliAt(bed, ['plan', dir, '--format', 'json'], env);
    for (const r of [text, md, json]) expect(r.code, r.stderr).toBe(0);
    for (const name of ['first', 'second', 'literal']) {
      expect(text.stdout).toContain(`+ create ${name} A ${ORIGIN}`);
      expect(md.stdout).toContain(`\`${name} A ${ORIGIN}\``);
    }
    expect(text.stdout).toContain(`+ create origin A ${LABEL}`);
    expect(md.stdout).toContain(`\`origin A ${LABEL}\``);
    expect(text.stdout + md.stdout).not.toMatch(/origin A 198/);
    const steps = (
      JSON.parse(json.stdout) as { steps: { address: string; after: { content?: string } | null }[] }
    ).steps;
    const contentOf = (name: string) => steps.find((s) => s.address.startsWith(`${name} A`))?.after?.content;
    expect(['first', 'second', 'literal', 'origin'].map(contentOf)).toEqual([ORIGIN, ORIGIN, ORIGIN, LABEL]);

    // a saved plan of the files (its step ids masked per entry) matches the fresh plan of apply;
    // the report, --verbose logs and the journal mask the value everywhere
    const saved = await cliAt(bed, ['plan', dir, '--out', 'many-plan.json'], env);
    expect(saved.code, saved.stderr).toBe(0);
    const savedText = readFileSync(join(bed.dir, 'many-plan.json'), 'utf8');
    expect(savedText).toContain(LABEL);
    expect(savedText).toContain(`"content": "${ORIGIN}"`);
    const applied = await cliAt(bed, ['apply', 'many-plan.json', '--auto-approve', '--verbose'], env);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).not.toContain(ORIGIN);
    expect(applied.stdout.slice(applied.stdout.indexOf('Applied'))).not.toContain(ORIGIN);
    for (const f of readdirSync(join(dir, '.zoneplan', 'journal'))) {
      expect(readFileSync(join(dir, '.zoneplan', 'journal', f), 'utf8')).not.toContain(ORIGIN);
    }
  });
});
