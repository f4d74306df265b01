/**
 * The rehearsal as a new user meets it, on the embedded local API with the shipped examples (the
 * README quick start): examples/quickstart.yaml rehearses cleanly; examples/rehearsal.yaml, whose
 * target is seeded from examples/fixtures-rehearsal.yaml, is refused in the sandbox. The text
 * verdict goes to stderr; the Markdown plan carries it under its target line, before the tables.
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { tempDir } from '../cli-reconcile/helpers.js';

const example = (name: string) => fileURLToPath(new URL(`../../examples/${name}`, import.meta.url));

/** A copy of the examples in a temp dir: the embedded target keeps its database beside the file. */
function checkout(): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'examples'));
  for (const f of ['quickstart.yaml', 'rehearsal.yaml', 'fixtures-rehearsal.yaml'])
    copyFileSync(example(f), join(dir, 'examples', f));
  return dir;
}

const REFUSED =
  'refused: rehearsal.example dns shop CNAME shops.example.net: POST /zones/:id/dns_records/batch -> 400 81053 An A, AAAA, or CNAME record with that host already exists.';

describe('rehearsal on the embedded local API', () => {
  it('quickstart: text and Markdown verdicts of a rehearsal that passes', async () => {
    const cwd = checkout();
    const text = await runCli(['plan', 'examples/quickstart.yaml', '--rehearse'], { cwd });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stderr).toContain(
      'rehearsed: 14 steps applied in the sandbox, second plan empty\n  the real apply would send: 3 POST\n',
    );
    // the estimate counts the wave a CNAME waits in for its in-zone target: the 3 POSTs sent
    expect(text.stdout).toContain('Plan: 14 to create, 0 to update, 0 to delete (about 3 API calls).');

    const summary = join(cwd, 'summary.md');
    const md = await runCli(['plan', 'examples/quickstart.yaml', '--rehearse', '--format', 'markdown'], {
      cwd,
      env: { GITHUB_STEP_SUMMARY: summary },
    });
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toMatch(
      /^### zoneplan: Plan: 14 to create.*\n\nTarget: `[^`]+`\n\n\*\*rehearsed: 14 steps applied in the sandbox, second plan empty\*\*\n\nThe rehearsal passed: every step was accepted and planning again found nothing left to do\.\n\n- the real apply would send: 3 POST\n\n#### zone quickstart\.example\n/,
    );
    // the GitHub job summary carries the same verdict
    expect(readFileSync(summary, 'utf8')).toContain(
      '**rehearsed: 14 steps applied in the sandbox, second plan empty**',
    );
    // the plan was rehearsed, not applied: the embedded target still has no zone
    const again = await runCli(['plan', 'examples/quickstart.yaml', '--detailed-exitcode'], { cwd });
    expect(again.code).toBe(2);
  });

  it('examples/rehearsal.yaml: plain plan passes, the rehearsal refuses the CNAME, apply writes nothing', async () => {
    const cwd = checkout();
    const plain = await runCli(['plan', 'examples/rehearsal.yaml'], { cwd });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toContain('Plan: 2 to create, 0 to update, 0 to delete');

    const text = await runCli(['plan', 'examples/rehearsal.yaml', '--rehearse'], { cwd });
    expect(text.code).toBe(1);
    expect(text.stderr).toContain(
      'rehearsed: 0 steps applied in the sandbox, second plan has 2 steps, 1 not run\n' + `  ${REFUSED}\n`,
    );

    const md = await runCli(['plan', 'examples/rehearsal.yaml', '--rehearse', '--format', 'markdown'], {
      cwd,
    });
    expect(md.code).toBe(1);
    expect(md.stdout).toContain(
      '**rehearsed: 0 steps applied in the sandbox, second plan has 2 steps, 1 not run**\n\n' +
        '**The rehearsal did not pass**: the API refused 1 step (below), so applying this plan would fail.\n\n' +
        '- refused: `rehearsal.example dns shop CNAME shops.example.net`: `POST /zones/:id/dns_records/batch -> 400 81053 An A, AAAA, or CNAME record with that host already exists.`\n',
    );

    const apply = await runCli(['apply', 'examples/rehearsal.yaml', '--rehearse-first', '--auto-approve'], {
      cwd,
    });
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain(REFUSED);
    expect(apply.stderr).toContain('the rehearsal did not pass; nothing was applied to the target');
    const after = await runCli(['plan', 'examples/rehearsal.yaml'], { cwd });
    expect(after.stdout).toContain('Plan: 2 to create, 0 to update, 0 to delete');
  });
});
