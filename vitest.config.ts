import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Test tiers (docs/development.md, "Test tiers"). A file is in exactly one tier:
 * - unit: the files named in UNIT_FILES: pure functions and files on disk; no server, no child
 *   process, no network (test/support/tier-guard.ts makes each of those throw there).
 * - process: the files named in PROCESS_FILES: the built CLI or `zoneplan serve` as child processes,
 *   signals, shells, editors and the real Python clients.
 * - integration: every other file: the local API and the CLI inside the test process. A new file
 *   lands here until it is named in a list; a child process throws here (the guard again), so a file
 *   can never drift into a faster tier than it needs.
 */
export const UNIT_FILES = [
  'test/cli/confirm.test.ts',
  'test/cli/early-scan.test.ts',
  'test/client/backoff.test.ts',
  'test/client/body-text.test.ts',
  'test/config/all-at-once.test.ts',
  'test/config/deep-nesting.test.ts',
  'test/config/dns-rules.test.ts',
  'test/config/env.test.ts',
  'test/config/json-syntax.test.ts',
  'test/config/large-files.test.ts',
  'test/config/load.test.ts',
  'test/config/many-files.test.ts',
  'test/config/schema-file.test.ts',
  'test/config/schema-messages.test.ts',
  'test/config/schema-validator.test.ts',
  'test/config/semantic.test.ts',
  'test/config/yaml-fast-path.test.ts',
  'test/config/yaml-source.test.ts',
  'test/contract/contract.test.ts',
  'test/core/boundaries.test.ts',
  'test/core/engine.test.ts',
  'test/core/redact-for-step.test.ts',
  'test/core/runs-last.test.ts',
  'test/core/selection.test.ts',
  'test/docs/links.test.ts',
  'test/docs/test-tiers.test.ts',
  'test/export/dns-check.test.ts',
  'test/export/escape.test.ts',
  'test/export/exporters.test.ts',
  'test/export/flow-lines.test.ts',
  'test/export/unmanaged-kinds.test.ts',
  'test/kinds/dns/build.test.ts',
  'test/kinds/dns/ipv6-fast.test.ts',
  'test/kinds/dns/plan-fast-path.test.ts',
  'test/kinds/dns/plan.test.ts',
  'test/kinds/dns/read.test.ts',
  'test/kinds/dns/renames.test.ts',
  'test/kinds/dns/validate-certify.test.ts',
  'test/kinds/dns/validate-duplicates.test.ts',
  'test/kinds/load-balancing/plan.test.ts',
  'test/kinds/load-balancing/validate.test.ts',
  'test/kinds/logpush/fixtures.test.ts',
  'test/kinds/logpush/normalise.test.ts',
  'test/kinds/logpush/plan.test.ts',
  'test/kinds/logpush/proofs.test.ts',
  'test/kinds/logpush/validate.test.ts',
  'test/kinds/page-shield/plan.test.ts',
  'test/kinds/page-shield/report.test.ts',
  'test/kinds/page-shield/validate.test.ts',
  'test/kinds/step-sources.test.ts',
  'test/kinds/waf/plan.test.ts',
  'test/kinds/zones/read-many.test.ts',
  'test/rules/dns/ip.test.ts',
  'test/rules/dns/plan-limits.test.ts',
  'test/rules/dns/rules.test.ts',
  'test/rules/logpush/destination-secrets.test.ts',
  'test/rules/logpush/filter-depth.test.ts',
  'test/rules/logpush/filter.test.ts',
  'test/rules/logpush/job-fields.test.ts',
  'test/rules/logpush/job.test.ts',
  'test/rules/notifications/policy.test.ts',
  'test/rules/page-shield/policy.test.ts',
  'test/rules/shared/values-once.test.ts',
  'test/rules/waf/migration.test.ts',
  'test/rules/zones.test.ts',
  'test/security/redact-forms.test.ts',
  'test/server/permission-areas.test.ts',
  'test/server/seeded-random.test.ts',
];

export const PROCESS_FILES = [
  'test/action/action.test.ts',
  'test/cli-reconcile/concurrent.test.ts',
  'test/cli-reconcile/interrupt.test.ts',
  'test/cli-reconcile/plan-limits.test.ts',
  'test/cli/bundle.test.ts',
  'test/cli/closed-pipe.test.ts',
  'test/cli/code-cache.test.ts',
  'test/cli/completion.test.ts',
  'test/cli/hostile-paths.test.ts',
  'test/cli/install-without-compiler.test.ts',
  'test/cli/out-file.test.ts',
  'test/cli/package.test.ts',
  'test/cli/skeleton.test.ts',
  'test/cli/v8-flags.test.ts',
  'test/clients/certbot.test.ts',
  'test/clients/lexicon.test.ts',
  'test/config/editor.test.ts',
  'test/reliability/cli-bad-input.test.ts',
  'test/reliability/crash.test.ts',
  'test/reliability/drift-property.test.ts',
  'test/reliability/soak.test.ts',
  'test/security/env-identifiers.test.ts',
  'test/security/secrets.test.ts',
  'test/security/serve-test-routes.test.ts',
  'test/security/tampered-plans.test.ts',
  'test/server/serve-cli.test.ts',
];

const ALL = ['test/**/*.test.ts'];
const GUARD = ['test/support/tier-guard.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // vitest's default is one worker fewer than the cores: a single worker on a 2-core machine,
    // while most files of the slower tiers wait on a server, a child process or a retry-after
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: UNIT_FILES, setupFiles: GUARD, provide: { tier: 'unit' } },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ALL,
          exclude: [...configDefaults.exclude, ...UNIT_FILES, ...PROCESS_FILES],
          setupFiles: GUARD,
          provide: { tier: 'integration' },
        },
      },
      { extends: true, test: { name: 'process', include: PROCESS_FILES, provide: { tier: 'process' } } },
    ],
  },
});
