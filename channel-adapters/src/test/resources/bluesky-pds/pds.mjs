// The reference Bluesky PDS for Herald's live tests: an in-memory PLC directory and a PDS on SQLite,
// both on 127.0.0.1, both from @atproto/dev-env (TestPlc, TestPds) as installed by .ci/bluesky.sh.
//
// Fully offline: DIDs are registered with and resolved by the local PLC, handles end in ".test"
// (the PDS's own domain, so no DNS), and everything that would call out is left unconfigured: no
// AppView (app.bsky.* reads are not proxied anywhere), no moderation or report service, no crawlers,
// no e-mail, no Redis. Invite codes are not required, so accounts are made with a plain
// com.atproto.server.createAccount.
//
// Run with Node 22:  node pds.mjs
//   HERALD_BLUESKY_HOME   the folder .ci/bluesky.sh installed into (holds node_modules); default /opt/herald-bluesky
//   PDS_PORT              the PDS's port; 0 or unset for a free one
//   PDS_JWT_SECRET        the secret that signs sessions (a test may sign a token of its own with it); random if unset
//   PDS_ADMIN_PASSWORD    the admin password (Basic admin:<password>); random if unset
//   PDS_LOG               "true" to let the PDS log (to stderr)
// Prints one JSON line on stdout when ready:
//   {"ready":true,"pdsUrl":"http://127.0.0.1:<port>","plcUrl":"http://127.0.0.1:<port>","serviceDid":"did:web:localhost","version":"0.5.35"}
// or {"ready":false,"error":"..."} and exits 1. Stops (and removes its data) when stdin closes or on SIGTERM/SIGINT.

import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const home = process.env.HERALD_BLUESKY_HOME || '/opt/herald-bluesky';
const log = process.env.PDS_LOG === 'true';
// The PDS logs with pino on stdout; stdout is for the ready line only.
process.env.LOG_ENABLED = log ? 'true' : 'false';
process.env.LOG_DESTINATION = '/dev/stderr';

function say(line) {
  process.stdout.write(JSON.stringify(line) + '\n');
}

// Both servers call listen(port) with no host, which would bind every interface: keep them on loopback.
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'number' || (typeof args[0] === 'string' && /^\d+$/.test(args[0]))) {
    if (typeof args[1] !== 'string') {
      args.splice(1, 0, '127.0.0.1');
    }
  } else if (args[0] && typeof args[0] === 'object' && args[0].port !== undefined && !args[0].host && !args[0].path) {
    args[0] = { ...args[0], host: '127.0.0.1' };
  }
  return listen.apply(this, args);
};

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    listen.call(server, 0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const modules = createRequire(join(home, 'package.json'));
// Only the two classes used: the package's index also loads the AppView, Ozone and the rest, which
// doubles the start-up time.
const devEnvDist = dirname(modules.resolve('@atproto/dev-env'));
const { TestPlc } = await import(pathToFileURL(join(devEnvDist, 'plc.js')).href);
const { TestPds } = await import(pathToFileURL(join(devEnvDist, 'pds.js')).href);
const pdsVersion = JSON.parse(readFileSync(modules.resolve('@atproto/pds/package.json'), 'utf8')).version;

const dataRoot = mkdtempSync(join(tmpdir(), 'herald-pds-'));
let plc;
let pds;
let stopping = false;

async function stop(code) {
  if (stopping) return;
  stopping = true;
  const force = setTimeout(() => process.exit(code), 5000);
  force.unref();
  try {
    await pds?.close();
  } catch (e) {
    process.stderr.write(`closing the PDS: ${e}\n`);
  }
  try {
    await plc?.close();
  } catch (e) {
    process.stderr.write(`closing the PLC: ${e}\n`);
  }
  rmSync(dataRoot, { recursive: true, force: true });
  process.exit(code);
}

process.on('SIGTERM', () => stop(0));
process.on('SIGINT', () => stop(0));
process.stdin.on('end', () => stop(0));
process.stdin.on('error', () => stop(0));
process.stdin.resume();

try {
  const plcPort = await freePort();
  plc = await TestPlc.create({ port: plcPort });
  const plcUrl = `http://127.0.0.1:${plcPort}`;

  const port = Number(process.env.PDS_PORT || 0) || (await freePort());
  mkdirSync(join(dataRoot, 'data'));
  pds = await TestPds.create({
    port,
    didPlcUrl: plcUrl,
    jwtSecret: process.env.PDS_JWT_SECRET || randomBytes(32).toString('hex'),
    adminPassword: process.env.PDS_ADMIN_PASSWORD || randomBytes(16).toString('hex'),
    dataDirectory: join(dataRoot, 'data'),
    blobstoreDiskLocation: join(dataRoot, 'blobs'),
    blobstoreDiskTmpLocation: join(dataRoot, 'blobs-tmp'),
    serviceHandleDomains: ['.test'],
    inviteRequired: false,
    // nothing to call out to: dev-env's placeholders for these are unset again
    bskyAppViewUrl: undefined,
    bskyAppViewDid: undefined,
    bskyAppViewCdnUrlPattern: undefined,
    modServiceUrl: undefined,
    modServiceDid: undefined,
    reportServiceUrl: undefined,
    reportServiceDid: undefined,
    crawlers: [],
    emailSmtpUrl: undefined,
    emailFromAddress: undefined,
    redisScratchAddress: undefined,
    homeUrl: undefined,
    termsOfServiceUrl: undefined,
    privacyPolicyUrl: undefined,
    supportUrl: undefined,
  });
  say({
    ready: true,
    pdsUrl: `http://127.0.0.1:${port}`,
    plcUrl,
    serviceDid: pds.ctx.cfg.service.did,
    version: pdsVersion,
  });
} catch (e) {
  say({ ready: false, error: String(e?.stack || e) });
  await stop(1);
}
