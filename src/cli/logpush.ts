/**
 * `zoneplan logpush ownership ZONE DESTINATION`: asks the API to write an ownership challenge into a
 * destination (`POST /zones/{id}/logpush/ownership`) and says where to read it: the file it names
 * in the bucket. The challenge goes into the desired-state file as `ownership_challenge`, usually
 * `${env:NAME}`. The destination is shown masked: its query-string credentials never print.
 */
import { Option, type Command } from 'commander';
import { UserError } from '../errors.js';
import { redact } from '../redact.js';
import { openHelperTarget, resolveHelperZone } from './page-shield.js';

interface OwnershipResult {
  filename?: string;
  message?: string;
  valid?: boolean;
}

/**
 * The local API (`zoneplan serve`) cannot write into a real bucket; it keeps the challenge and
 * reveals it under a test-only path (docs/local-api.md, "Logpush"), served only with
 * `serve --test-routes` and to its admin credential, which the hint names. Told apart from a real API by
 * its loopback address. The destination is left as a placeholder: printed, it would carry its
 * credentials into the terminal's scrollback.
 */
function localChallengeHint(baseUrl: string, zoneId: string): string | undefined {
  if (!/^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\//.test(baseUrl)) return undefined;
  const origin = baseUrl.replace(/\/(client|api)\/v4\/?$/, '');
  return `${origin}/__zoneplan/zones/${zoneId}/logpush/ownership?destination_conf=<DESTINATION, URL-encoded>`;
}

async function ownership(zone: string, destination: string, opts: { file?: string }, command: Command) {
  const { registerDestinationSecrets } = await import('../kinds/logpush/destination.js');
  const { maskDestination, validateDestinationConf } = await import('../rules/logpush/index.js');
  // Before anything can print it: the destination may carry credentials.
  registerDestinationSecrets(destination);
  const problems = validateDestinationConf(destination, 'DESTINATION');
  if (problems.length > 0) throw new UserError(problems.map((p) => `${p.path} ${p.message}`).join('; '));
  const shown = maskDestination(destination);

  const { target, out, format } = await openHelperTarget(command, opts.file);
  try {
    const z = await resolveHelperZone(target, zone);
    const res = await target.client.request<OwnershipResult | null>(
      'POST',
      `/zones/${z.id}/logpush/ownership`,
      {
        body: { destination_conf: destination },
      },
    );
    const result = res.result ?? {};
    const filename = result.filename ?? '';
    const local = localChallengeHint(target.client.baseUrl, z.id);
    if (format === 'json') {
      const doc = {
        zone: z,
        destination: shown,
        filename,
        message: result.message ?? '',
        valid: result.valid ?? false,
      };
      out.out(redact(JSON.stringify(local ? { ...doc, local_challenge_url: local } : doc, null, 2)));
      return;
    }
    const lines = [
      `Ownership challenge issued for ${shown} (zone ${z.name}).`,
      filename
        ? `Read it from the file ${filename} in that destination, and put its content in the job's`
        : `The API did not name the challenge file; look for the newest file in that destination, and put its content in the job's`,
      '`ownership_challenge`, for example `ownership_challenge: ${env:LOGPUSH_CHALLENGE}` with the variable set at run time.',
    ];
    if (result.message) lines.push(`The API says: ${result.message}`);
    if (local)
      lines.push(
        `This is the local API: the challenge is readable (test-only) at GET ${local}`,
        'when `zoneplan serve --test-routes` runs it, with Authorization: Bearer and the test-routes token it printed at start (or the dev token).',
      );
    out.out(redact(lines.join('\n')));
  } finally {
    await target.close();
  }
}

export function registerLogpush(program: Command): void {
  const group = program.command('logpush').description('Logpush helpers');
  group
    .command('ownership <zone> <destination>')
    .description('ask the API to write an ownership challenge into a destination, and say where to read it')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']))
    .option('-f, --file <file>', "use this desired-state file's target (as plan does)")
    .action(ownership);
}
