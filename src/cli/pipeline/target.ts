/**
 * Target selection for plan / apply / drift (docs/reference/design.md section 1), first match wins:
 *   1. --api-url   2. CLOUDFLARE_BASE_URL   3. --local or `target:` in the file
 *   4. the real API when CLOUDFLARE_API_TOKEN or CLOUDFLARE_EMAIL + CLOUDFLARE_API_KEY is set
 *   5. the embedded local API, started in-process on loopback over `.zoneplan/local.db` beside the
 *      first desired-state path (inside it when it is a directory; see ./state-dir.ts), but only when
 *      no credential variable is defined at all and CI is unset: a pipeline whose secret is missing
 *      (GitHub passes it as an empty string) must fail, not apply to a throwaway database and report
 *      success. See fallbackRefusal().
 * `--require-target api|local` then refuses a target of the other sort.
 * The CLI is the one place that may import both the reconciler and the server (src/core and
 * src/kinds never import src/server). Every command prints the description on stderr.
 */
import { dirname, isAbsolute, join, relative } from 'node:path';
import type { Auth } from '../../client/types.js';
import type { DesiredState } from '../../config/model.js';
import { UserError } from '../../errors.js';
import { redactUrl } from '../../redact.js';
import type { GlobalOptions } from '../globals.js';
import { stateBaseOf } from './state-dir.js';

export interface Target {
  client: import('../../client/index.js').ApiClient;
  auth?: Auth;
  /** one line for stderr: `target: ...` */
  description: string;
  /** stable identity for saved plans (a local target's port changes every run; its db does not) */
  identity: string;
  /** notes to print (e.g. accounts created in the local store) */
  notes: string[];
  /** the embedded local API's database, as shown (only for that target) */
  embeddedDb?: string;
  close(): Promise<void>;
}

export interface TargetInput {
  desired: DesiredState;
  /** the first desired-state path of the command line (a file or a directory) */
  file: string;
  globals: GlobalOptions;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}

/** Accounts the file names (top-level accounts and zone accounts), for the embedded store. */
function accountsOf(desired: DesiredState): string[] {
  const ids = new Set<string>(desired.accounts.map((a) => a.id));
  for (const z of desired.zones) if (z.account) ids.add(z.account);
  return [...ids].sort();
}

/**
 * For a command with no desired file (export, page-shield report, logpush ownership) that found no
 * such zone on the embedded API: plan and apply keep their store beside their file, so the zone is
 * likely in another one. Empty for other targets.
 */
export function embeddedStoreHint(target: Target): string {
  return target.embeddedDb
    ? `; this looked in the embedded local API over ${target.embeddedDb}, and plan and apply keep ` +
        'theirs beside their file: run this in that directory, pass -f FILE where the command takes it, or --api-url'
    : '';
}

export async function resolveTarget(input: TargetInput): Promise<Target> {
  const target = await pickTarget(input);
  try {
    checkRequiredTarget(input.globals.requireTarget, target);
  } catch (err) {
    await target.close();
    throw err;
  }
  return target;
}

async function pickTarget(input: TargetInput): Promise<Target> {
  const env = input.env ?? input.globals.io.env;
  const { createClientFromEnv, authFromEnv, ApiClient } = await import('../../client/index.js');
  // a long retry-after wait is said whatever the verbosity: a silent pause of minutes looks hung
  const notice = (line: string) => input.globals.io.stderr.write(line + '\n');
  const common = { rateLimit: input.globals.rateLimit, log: input.log, notice, env };
  const remote = (apiUrl: string | undefined, source: string): Target => {
    // an explicit URL with a set-but-empty secret would go out without credentials: say why first
    const refusal = authFromEnv(env) ? undefined : fallbackRefusal({ ...env, CI: undefined });
    if (refusal) throw new UserError(refusal.replace(/, or pass --local.*$/, ''));
    const client = createClientFromEnv({ ...common, apiUrl });
    const url = redactUrl(client.baseUrl);
    return {
      client,
      auth: authFromEnv(env),
      description: `target: ${url} (${source})`,
      identity: url,
      notes: [],
      close: () => client.close(),
    };
  };
  if (input.globals.apiUrl) return remote(input.globals.apiUrl, input.globals.apiUrlFrom ?? 'from --api-url');
  if (env.CLOUDFLARE_BASE_URL?.trim()) return remote(undefined, 'from CLOUDFLARE_BASE_URL');
  const spec = input.desired.target;
  if (spec && 'api_url' in spec) return remote(spec.api_url, 'from `target:` in the file');
  const auth = authFromEnv(env);
  const local = spec && 'local' in spec ? spec.local : undefined;
  const explicitLocal = Boolean(input.globals.local || local);
  if (!explicitLocal && auth)
    return remote(
      undefined,
      `the real API, ${auth.kind === 'token' ? 'token' : 'e-mail and key'} from the environment`,
    );
  const requireApi = input.globals.requireTarget === 'api';
  if (!explicitLocal) {
    const refusal = fallbackRefusal(env);
    // under --require-target api, "pass --local" would only lead to the next refusal
    if (refusal) throw new UserError(requireApi ? refusal.replace(/, or pass --local.*$/, '') : refusal);
  }

  // the embedded local API: paths in `target.local` are relative to the desired-state file (the
  // first one), or to the directory when the first path is one
  const base = stateBaseOf([input.file], input.globals.io.cwd);
  const at = (p: string) => (isAbsolute(p) ? p : join(base, p));
  const db = at(local?.db ?? join('.zoneplan', 'local.db'));
  const shown = relative(input.globals.io.cwd, db) || db;
  // refused before the server starts: a run that must reach a real API creates no local database
  if (requireApi) {
    throw new UserError(
      `--require-target api, but this run would use the embedded local API over ${shown}; ` +
        'set CLOUDFLARE_API_TOKEN or --api-url for a real one',
    );
  }
  const fixtures = local?.fixtures ? at(local.fixtures) : undefined;
  const { makeDirectory } = await import('../../make-directory.js');
  makeDirectory(dirname(db));
  const { startServer } = await import('../../server/index.js');
  const server = await startServer({
    db,
    fixtures,
    port: 0,
    host: '127.0.0.1',
    ensureAccounts: accountsOf(input.desired),
    quiet: true,
  });
  const token = server.devToken ?? (auth?.kind === 'token' ? auth.token : undefined);
  const baseUrl = /\/v4\/?$/.test(server.url) ? server.url : `${server.url.replace(/\/+$/, '')}/client/v4`;
  const client = new ApiClient({
    baseUrl,
    auth: token ? { kind: 'token', token } : auth,
    log: input.log,
    backoffBaseMs: 50,
  });
  const notes = (server.createdAccounts ?? []).map(
    (id: string) =>
      `created account ${id} in the local store (the real API has no account creation; accounts come from your dashboard)`,
  );
  return {
    client,
    auth: token ? { kind: 'token', token } : auth,
    description: `target: the embedded local API over ${shown} (${server.url}); set CLOUDFLARE_API_TOKEN or --api-url for a real one`,
    identity: `local:${db}`,
    notes,
    embeddedDb: shown,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

export const CREDENTIAL_VARIABLES = ['CLOUDFLARE_API_TOKEN', 'CLOUDFLARE_EMAIL', 'CLOUDFLARE_API_KEY'];

/** `CI=true` (GitHub, GitLab, most runners); `CI=false` or `CI=0` is a way of saying "not CI". */
export function inCi(env: NodeJS.ProcessEnv): boolean {
  const ci = env.CI?.trim().toLowerCase();
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}

/**
 * Why the embedded local API may not be picked by default here, or undefined when it may: a
 * credential variable that is defined but empty (a missing CI secret), or CI without credentials.
 * Both are exactly the runs where a silent fallback would report success and change nothing real.
 */
export function fallbackRefusal(env: NodeJS.ProcessEnv): string | undefined {
  const empty = CREDENTIAL_VARIABLES.filter((n) => env[n] !== undefined && !env[n]!.trim());
  if (empty.length > 0) {
    const names = empty.join(', ');
    return (
      `${names} ${empty.length > 1 ? 'are' : 'is'} set but empty (a missing CI secret?); ` +
      `give ${empty.length > 1 ? 'them' : 'it'} a value, unset ${empty.length > 1 ? 'them' : 'it'}, ` +
      'or pass --local to use the embedded local API on purpose'
    );
  }
  if (inCi(env)) {
    return (
      'no credentials in CI (CI is set, and neither CLOUDFLARE_API_TOKEN nor CLOUDFLARE_EMAIL + ' +
      'CLOUDFLARE_API_KEY is): set them, or pass --local to use the embedded local API on purpose'
    );
  }
  return undefined;
}

/** `--require-target api|local`: a pipeline that must reach a real API refuses the embedded one. */
export function checkRequiredTarget(required: string | undefined, target: Target): void {
  if (!required) return;
  const sort = target.identity.startsWith('local:') ? 'local' : 'api';
  if (sort !== required) {
    throw new UserError(
      `--require-target ${required}, but this run would use ${target.description.replace(/^target: /, '')}`,
    );
  }
}

/**
 * Refuses a target whose identity differs from the one a saved plan was made against, or a remote
 * target reached with another sort of credential than the plan was made with (its permissions are
 * another's).
 */
export function checkSameTarget(saved: string, current: Target, credential?: 'token' | 'key'): void {
  if (saved !== current.identity) {
    throw new UserError(
      `the saved plan was made against ${saved}, but this run targets ${current.identity}; plan again against this target`,
    );
  }
  const now = credentialOf(current);
  if (credential && now !== credential) {
    const name = (k?: string) =>
      k === 'token' ? 'an API token' : k === 'key' ? 'an e-mail and key' : 'no credential';
    throw new UserError(
      `the saved plan was made with ${name(credential)}, but this run has ${name(now)}; apply it with the credential it was planned with, or plan again`,
    );
  }
}

/** The sort of credential a remote target is reached with (none for the embedded local API). */
export function credentialOf(target: Target): 'token' | 'key' | undefined {
  return target.identity.startsWith('local:') ? undefined : target.auth?.kind;
}

/**
 * An in-process local API over `:memory:` loaded with `fixtures`: the sandbox of `plan --rehearse`
 * (src/cli/rehearse.ts). Started here, beside the embedded target, so the CLI keeps one seam to
 * the server.
 */
export async function startSandbox(
  fixtures: Record<string, unknown>,
  accounts: string[],
): Promise<{ baseUrl: string; token: string; close(): Promise<void> }> {
  const { startServer } = await import('../../server/index.js');
  const server = await startServer({
    db: ':memory:',
    fixtures,
    port: 0,
    host: '127.0.0.1',
    ensureAccounts: accounts,
    quiet: true,
  });
  const baseUrl = /\/v4\/?$/.test(server.url) ? server.url : `${server.url.replace(/\/+$/, '')}/client/v4`;
  return { baseUrl, token: server.devToken!, close: () => server.close() };
}
