// Shell completion scripts, run by the real shells: bash's completion function is called with a
// command line, fish's `complete -C` answers for a command line, zsh loads the script under compinit.
// A shell missing on a developer's machine skips its test with a message; in CI every shell must be
// there (.ci/run installs them), so a missing one fails. The scripts come from the CLI in-process.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'zoneplan-completion-'));

async function script(shell: string): Promise<string> {
  const file = join(dir, `zoneplan.${shell}`);
  const r = await runCli(['completion', shell]);
  if (r.code !== 0) throw new Error(r.stderr);
  writeFileSync(file, r.stdout);
  return file;
}

function has(shell: string): boolean {
  const found = spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
  if (!found && process.env.CI) throw new Error(`${shell} is missing in CI: .ci/run installs it`);
  if (!found)
    console.warn(
      `skipping the ${shell} completion test: ${shell} is not installed here; install it with: apt-get install -y ${shell}`,
    );
  return found;
}

describe('zoneplan completion', () => {
  it(
    'bash: completes commands, sub-commands, options and option choices',
    { skip: !has('bash') },
    async () => {
      const file = await script('bash');
      const complete = (line: string) => {
        const words = line.split(' ');
        const out = execFileSync(
          'bash',
          [
            '-c',
            `source ${file}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _zoneplan; printf '%s\\n' "\${COMPREPLY[@]}"`,
          ],
          { encoding: 'utf8', cwd: dir },
        );
        return out.split('\n').filter(Boolean);
      };
      expect(complete('zoneplan pl')).toEqual(['plan']);
      expect(complete('zoneplan plan --detailed')).toEqual(['--detailed-exitcode']);
      expect(complete('zoneplan plan --format ')).toEqual(['text', 'json', 'markdown']);
      expect(complete('zoneplan page-shield re')).toEqual(['report']);
      expect(complete('zoneplan apply --auto')).toEqual(['--auto-approve']);
      expect(complete('zoneplan completion ')).toEqual(expect.arrayContaining(['bash', 'zsh', 'fish']));
      // a file argument completes as a file name
      await script('fish');
      expect(complete('zoneplan validate zoneplan.f')).toContain('zoneplan.fish');
    },
  );

  it('fish: answers for a command line', { skip: !has('fish') }, async () => {
    const file = await script('fish');
    const complete = (line: string) =>
      execFileSync('fish', ['--no-config', '-c', `source ${file}; complete -C '${line}'`], {
        encoding: 'utf8',
      })
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]);
    expect(complete('zoneplan pl')).toEqual(['plan']);
    expect(complete('zoneplan plan --detailed')).toEqual(['--detailed-exitcode']);
    expect(complete('zoneplan plan --format=')).toEqual([
      '--format=json',
      '--format=markdown',
      '--format=text',
    ]);
    expect(complete('zoneplan apply --auto')).toEqual(['--auto-approve']);
    expect(complete('zoneplan completion ')).toEqual(['bash', 'fish', 'zsh']);
  });

  it(
    'zsh: the script loads under compinit and defines a function per command',
    { skip: !has('zsh') },
    async () => {
      const file = await script('zsh');
      const out = execFileSync(
        'zsh',
        [
          '-f',
          '-c',
          `autoload -U compinit; compinit -u -d ${dir}/zcompdump; source ${file}; print -l \${(k)functions[(I)_zoneplan*]}`,
        ],
        { encoding: 'utf8' },
      );
      expect(out.split('\n').filter(Boolean).sort()).toEqual(
        expect.arrayContaining([
          '_zoneplan',
          '_zoneplan_plan',
          '_zoneplan_apply',
          '_zoneplan_page_shield_report',
        ]),
      );
    },
  );

  it('an unknown shell is refused with the choices', async () => {
    const r = await runCli(['completion', 'powershell']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bash, zsh, fish/);
  });
});
