/**
 * `zoneplan serve`: the local, persistent, wire-compatible API. Prints the listening line (and, when
 * no fixtures define credentials, the dev token and default account), then serves until SIGINT or
 * SIGTERM, on which it finishes in-flight requests and closes the database.
 */
import { join } from 'node:path';
import type { Command } from 'commander';
import { UserError } from '../errors.js';
import { globalsOf } from './globals.js';
import { unredacted } from './redacting-io.js';

interface ServeOptions {
  host: string;
  port: string;
  db: string;
  fixtures?: string;
  faults?: string;
  testRoutes?: boolean;
  allowedHost: string[];
}

/** A host name as it appears in a Host header, without port: `zoneplan.internal`, `dev-box`. */
function parseAllowedHost(text: string, previous: string[]): string[] {
  const name = text.trim().toLowerCase();
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(name)) {
    throw new UserError(
      `--allowed-host must be a host name (letters, digits, hyphens and dots, no port or scheme), not "${text}"`,
    );
  }
  return [...previous, name];
}

function parsePort(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 65535) {
    throw new UserError(`--port must be a port number from 0 to 65535 (0 picks a free one), not "${text}"`);
  }
  return Number(text);
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the local, persistent, wire-compatible API')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', '8787')
    .option(
      '--db <path>',
      'SQLite database file, or :memory: for a throwaway store',
      join('.zoneplan', 'local.db'),
    )
    .option('--fixtures <file>', 'YAML fixtures: accounts, zones with plans, tokens, keys, records, ...')
    .option('--faults <spec>', 'inject faults, e.g. latency=50ms,error5xx=0.1,ratelimit=1200/300s,seed=42')
    .option(
      '--test-routes',
      'serve the test-only routes under /__zoneplan (fixtures, zone activation, Logpush ownership reveal, pool health) to the token printed at start or the dev token',
    )
    .option(
      '--allowed-host <name>',
      'also answer requests whose Host is this name (repeatable; IP addresses and localhost always work)',
      parseAllowedHost,
      [],
    )
    .addHelpText(
      'after',
      '\nThe base URL is printed on start: http://HOST:PORT/client/v4 (also served under /api/v4).\n' +
        'With no credentials in the fixtures, a dev token with full rights is created, kept in the database\n' +
        'and printed. Stop with Ctrl-C or SIGTERM: in-flight requests finish, then the database closes.\n' +
        'Requests whose Host header is a name other than localhost are refused (DNS rebinding) unless\n' +
        'the name is given with --allowed-host; request bodies must be sent as application/json.',
    )
    .action(async (opts: ServeOptions, command: Command) => {
      const globals = globalsOf(command);
      const { stdout, stderr } = globals.io;
      const port = parsePort(opts.port);
      // loaded on use so that `zoneplan --help` does not pay for SQLite and the server
      const { startServer } = await import('../server/index.js');
      const server = await startServer({
        db: opts.db,
        fixtures: opts.fixtures,
        port,
        host: opts.host,
        faults: opts.faults,
        quiet: globals.quiet,
        testRoutes: opts.testRoutes === true,
        allowedHosts: opts.allowedHost,
      });
      stdout.write(`zoneplan API listening on ${server.url}\n`);
      if (server.devToken) {
        // a credential printed on purpose: the way in to a server whose fixtures define none
        unredacted(stdout).write(
          `dev token (full rights, no fixtures define credentials): ${server.devToken}\n`,
        );
        stdout.write(`default account: ${server.defaultAccountId}\n`);
      }
      if (server.testRoutesToken) {
        // a secret of this run only, printed on purpose: whoever can read this output may load
        // fixtures (new tokens)
        unredacted(stdout).write(
          `test-routes token (Authorization: Bearer, for /__zoneplan; this run only): ${server.testRoutesToken}\n`,
        );
      }
      if (!globals.quiet) {
        stderr.write(`database: ${opts.db}${opts.faults ? `; faults: ${opts.faults}` : ''}\n`);
      }
      // the signal listeners live as long as this run: removed on stop, so none outlive it
      await new Promise<void>((resolve) => {
        const stop = (signal: string) => {
          process.off('SIGINT', onInt);
          process.off('SIGTERM', onTerm);
          if (!globals.quiet) stderr.write(`${signal}: finishing in-flight requests...\n`);
          server.close().then(() => {
            if (!globals.quiet) stderr.write('zoneplan API stopped; database closed\n');
            resolve();
          }, resolve);
        };
        const onInt = () => stop('SIGINT');
        const onTerm = () => stop('SIGTERM');
        process.on('SIGINT', onInt);
        process.on('SIGTERM', onTerm);
      });
    });
}
