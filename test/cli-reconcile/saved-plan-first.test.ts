/**
 * `apply PLAN.json` checks what the saved plan was made for (the desired file's hash and the
 * target) before it sends any request: a plan for another target is refused as such, not with that
 * target's 401, and a target is never read for a plan that will be refused anyway.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, startBed, writeYaml, zoneFile, type Bed } from './helpers.js';

const ZONE = 'saved.example';
const RECORDS = ['{ name: "@", type: A, content: 192.0.2.1 }'];

let bed: Bed | undefined;
let other: Server | undefined;
afterEach(async () => {
  await bed?.close();
  await new Promise((done) => (other ? other.close(done) : done(undefined)));
  bed = other = undefined;
});

/** Another API that counts what reaches it and refuses it, as a server with other credentials would. */
async function countingServer(): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  other = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ success: false, errors: [{ code: 10000, message: 'Authentication error' }] }));
  });
  await new Promise<void>((done) => other!.listen(0, '127.0.0.1', done));
  const { port } = other.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/client/v4`, requests };
}

/** A fresh bed with zones.yaml planned into plan.json against its server. */
async function plannedBed() {
  const b = (bed = await startBed());
  const file = writeYaml(b.dir, 'zones.yaml', zoneFile(ZONE, RECORDS));
  const env = { CLOUDFLARE_API_TOKEN: b.token };
  const planned = await cli(['plan', file, '--out', 'plan.json', '--api-url', b.server.url], {
    cwd: b.dir,
    env,
  });
  expect(planned.code, planned.stderr).toBe(0);
  return { env, bed: b };
}

describe('apply of a saved plan', () => {
  it('refuses a plan made for another target before any request to it', async () => {
    const { env, bed } = await plannedBed();

    const elsewhere = await countingServer();
    const run = await cli(['apply', 'plan.json', '--auto-approve', '--api-url', elsewhere.url], {
      cwd: bed.dir,
      env,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`the saved plan was made against ${bed.server.url}`);
    // Not the refusing server's answer (a bare '401' could be part of a random port number).
    expect(run.stderr).not.toMatch(/Authentication error|HTTP 401|status 401/);
    expect(elsewhere.requests).toEqual([]);
  });

  it('refuses a plan whose file changed before reading the target', async () => {
    const { env, bed } = await plannedBed();
    const elsewhere = await countingServer();
    writeYaml(bed.dir, 'zones.yaml', zoneFile(ZONE, RECORDS) + '\n');
    const run = await cli(['apply', 'plan.json', '--auto-approve', '--api-url', elsewhere.url], {
      cwd: bed.dir,
      env,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('zones.yaml changed since it was made');
    expect(elsewhere.requests).toEqual([]);
  });
});
