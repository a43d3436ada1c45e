// Soak and load for `cuzk serve`, loopback only: for a chosen duration it
// replays what probing the daemon found (queue floods with cancels, long
// strings, values out of range, huge timeouts, hundreds of idle HTTP
// connections, refused methods), proves throughout and checks every returned
// proof with an independent pairing check (@noble/curves), samples the
// daemon's RSS, and ends with SIGTERM under load. Exit 0 when every check
// held.
//   node tests/soak/soak.mjs --cuzk build/bin/cuzk --duration 60 [--lg 8] [--out DIR]
//        [--rss-slack-mb 64] [--config-append extra.toml]
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

// Without the npm packages of tests/vectors the test skips (exit 77), saying
// so, as the other tests that need them do.
let root, requireVectors, verifyProof, beToBig, grpc, protoLoader;
try {
  ({ root, requireVectors, verifyProof, beToBig } = await import('../node/groth16_check.mjs'));
  grpc = requireVectors('@grpc/grpc-js');
  protoLoader = requireVectors('@grpc/proto-loader');
} catch (e) {
  console.log(`SKIP: the Node test packages are not installed (${e.code || e.message}); ` +
              'scripts/setup.sh --test installs them');
  process.exit(77);
}

function arg(name, fallback) {
  const i = process.argv.indexOf('--' + name);
  return i > 0 ? process.argv[i + 1] : fallback;
}
const cuzk = path.resolve(arg('cuzk', path.join(root, 'build/bin/cuzk')));
const durationS = Number(arg('duration', '60'));
const lg = Number(arg('lg', '8'));
const outDir = arg('out', '');
const rssSlackMb = Number(arg('rss-slack-mb', '64'));
const configAppend = arg('config-append', '');  // a TOML file appended to the daemon's config

const failures = [];
const stats = { rounds: 0, proofs_checked: 0, floods: 0, flood_accepted: 0, flood_refused: 0, codes: {} };
function check(cond, what) {
  if (!cond) failures.push(what);
  return cond;
}
function count(method, c) {
  const k = method + ':' + c;
  stats.codes[k] = (stats.codes[k] || 0) + 1;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---- the daemon --------------------------------------------------------------
const dir = mkdtempSync(path.join(tmpdir(), 'cuzk-soak-'));
const sock = path.join(dir, 'cuzk.sock');
const config = path.join(dir, 'cuzk.toml');
writeFileSync(config, `[server]
listen = "unix://${sock}"
status_listen = "127.0.0.1:0"
shutdown_grace_ms = 10000
[cache]
dir = "${dir}/cache"
[demo]
lg_domain = ${lg}
public_inputs = 2
[pipeline]
prover_threads = 2
[jobs]
result_retention_ms = 2000
[scheduler]
max_queued_jobs = 1024
` + (configAppend ? readFileSync(configAppend, 'utf8') : ''));

const server = spawn(cuzk, ['serve', '--config', config, '--log-level', 'warn'],
  { stdio: ['ignore', 'pipe', 'pipe'] });
let serverErr = '';
server.stderr.on('data', (d) => { serverErr = (serverErr + d).slice(-20000); });
const exited = new Promise((resolve) => server.on('exit', (c, s) => resolve({ c, s })));
let httpPort = 0;

function rssMb() {
  try {
    const m = readFileSync(`/proc/${server.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
    return m ? Number(m[1]) / 1024 : 0;
  } catch { return 0; }
}
const t0 = Date.now();
const rss = [];
let phase = 'start';
const sampler = setInterval(() => rss.push({ t_s: (Date.now() - t0) / 1000, rss_mb: rssMb(), phase }), 1000);

// ---- gRPC ---------------------------------------------------------------------
const def = protoLoader.loadSync(path.join(root, 'server/proto/cuzk/v1/cuzk.proto'),
  { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true });
const v1 = grpc.loadPackageDefinition(def).cuzk.v1;
let client;
function call(method, req, deadlineMs = 120000) {
  return new Promise((resolve) => {
    client[method](req, { deadline: Date.now() + deadlineMs }, (err, resp) => {
      const c = err ? grpc.status[err.code] || String(err.code) : 'OK';
      count(method, c);
      resolve({ code: c, resp, err });
    });
  });
}

let wtns, vk;
function checkProofs(result, partitions, what) {
  if (!check(result.status === 'COMPLETED', `${what}: ${result.status} ${result.error_message}`)) return;
  check(result.proof.length === 192 * partitions, `${what}: ${partitions} proofs`);
  for (let i = 0; i < partitions; i++) {
    const pub = result.public_inputs.slice(2 * i, 2 * i + 2).map(beToBig);
    const ok = verifyProof(vk, result.proof.subarray(192 * i, 192 * (i + 1)), pub);
    if (check(ok, `${what}: partition ${i} does not verify`)) stats.proofs_checked++;
  }
}
const submitReq = (extra = {}) => ({ proof_kind: 'GROTH16_CIRCUIT', circuit_id: 'demo', witness: wtns, ...extra });

// ---- phases -------------------------------------------------------------------
async function proveSome(jobs, parallel) {
  phase = 'prove';
  const one = async (i) => {
    const extra = i % 4 === 3 ? { witnesses: [wtns, wtns] } : {};
    const r = await call('Prove', { submit: submitReq({ priority: ['LOW', 'NORMAL', 'HIGH', 'CRITICAL'][i % 4], ...extra }) });
    if (check(r.code === 'OK', `Prove: ${r.code}`)) checkProofs(r.resp.result, extra.witnesses ? 3 : 1, `Prove ${i}`);
  };
  for (let i = 0; i < jobs; i += parallel)
    await Promise.all(Array.from({ length: Math.min(parallel, jobs - i) }, (_, k) => one(i + k)));
}

async function flood() {
  phase = 'flood';
  const ids = [];
  const submit = async () => {
    const r = await call('SubmitProof', submitReq({ priority: 'LOW' }), 30000);
    if (r.code === 'OK') ids.push(r.resp.job_id);
    else check(r.code === 'RESOURCE_EXHAUSTED', `flood submit: ${r.code}`);
  };
  for (let i = 0; i < 2100; i += 64) await Promise.all(Array.from({ length: 64 }, submit));
  stats.floods++;
  stats.flood_accepted += ids.length;
  stats.flood_refused += 2112 - ids.length;
  check(ids.length >= 1000, `flood: only ${ids.length} accepted`);
  for (let i = 0; i < ids.length; i += 64)
    await Promise.all(ids.slice(i, i + 64).map(async (id) => {
      const r = await call('CancelProof', { job_id: id }, 30000);
      // NOT_FOUND: the job already finished and its retention ran out.
      check(r.code === 'OK' || r.code === 'NOT_FOUND', `cancel: ${r.code}`);
    }));
  // Waits for the job to end (a cancel ends a running proof at its lane's next
  // stage boundary); the minute is a hang guard, not a measure of speed.
  const a = await call('AwaitProof', { job_id: ids[ids.length - 1], timeout_ms: 60000 }, 70000);
  check(a.code === 'OK' && ['CANCELLED', 'COMPLETED'].includes(a.resp.status), `await after cancel: ${a.code}`);
}

async function hostileRequests() {
  phase = 'hostile';
  const huge = 'x'.repeat(100000);
  const expect = async (method, req, want) => {
    const r = await call(method, req, 5000);
    check(r.code === want, `${method} with a hostile request: ${r.code}, expected ${want}`);
  };
  await expect('SubmitProof', submitReq({ circuit_id: huge }), 'INVALID_ARGUMENT');
  await expect('SubmitProof', submitReq({ request_id: huge }), 'INVALID_ARGUMENT');
  await expect('AwaitProof', { job_id: huge, timeout_ms: 1 }, 'NOT_FOUND');
  await expect('CancelProof', { job_id: huge }, 'NOT_FOUND');
  await expect('PreloadSRS', { circuit_id: huge }, 'NOT_FOUND');
  await expect('SubmitProof', submitReq({ priority: 99 }), 'INVALID_ARGUMENT');
  await expect('SubmitProof', submitReq({ proof_kind: 42 }), 'INVALID_ARGUMENT');
  await expect('SubmitProof', submitReq({ witness: wtns.subarray(0, wtns.length - 32) }), 'INVALID_ARGUMENT');
  const v99 = Buffer.from(wtns); v99.writeUInt32LE(99, 4);
  await expect('SubmitProof', submitReq({ witness: v99 }), 'INVALID_ARGUMENT');
  await expect('SubmitProof', submitReq({ witness: Buffer.concat([wtns, Buffer.from('tail')]) }), 'INVALID_ARGUMENT');
  const sub = await call('SubmitProof', submitReq());
  if (check(sub.code === 'OK', `submit: ${sub.code}`)) {
    const r = await call('AwaitProof', { job_id: sub.resp.job_id, timeout_ms: '18446744073709551615' });
    if (check(r.code === 'OK', `await forever: ${r.code}`)) checkProofs(r.resp, 1, 'await with UINT64_MAX');
  }
}

function rawHttp(bytes, limitMs) {
  return new Promise((resolve) => {
    const s = net.connect(httpPort, '127.0.0.1');
    let out = '';
    const timer = setTimeout(() => { s.destroy(); resolve({ out, timedOut: true }); }, limitMs);
    s.on('connect', () => s.write(bytes));
    s.on('data', (d) => { out += d; });
    s.on('error', () => {});
    s.on('close', () => { clearTimeout(timer); resolve({ out, timedOut: false }); });
  });
}

async function httpAbuse() {
  phase = 'http';
  const idle = [];
  for (let i = 0; i < 300; i++) {
    const s = net.connect(httpPort, '127.0.0.1');
    s.on('error', () => {});
    if (i % 3 === 0) s.on('connect', () => s.write('GET /status HTTP/1.1\r\nHost:'));
    idle.push(s);
  }
  await sleep(200);
  // Answered before the idle heads could have timed out (the daemon drops a
  // head not finished within 10 s of connecting, and the idle ones connected
  // at least 200 ms before): the answers did not wait for them to go. A bound
  // tied to that timeout, not a measure of speed.
  for (const p of ['/metrics', '/status']) {
    const begin = Date.now();
    const r = await rawHttp(`GET ${p} HTTP/1.1\r\nHost: x\r\n\r\n`, 30000);
    check(r.out.startsWith('HTTP/1.1 200'), `GET ${p} under 300 idle connections: ${r.out.slice(0, 40)}`);
    check(Date.now() - begin < 9000, `GET ${p} took ${Date.now() - begin} ms under 300 idle connections`);
  }
  const post = await rawHttp('POST /status HTTP/1.1\r\nHost: x\r\nContent-Length: 4000000000\r\n\r\n', 30000);
  check(post.out.startsWith('HTTP/1.1 405'), `POST with a 4 GB body: ${post.out.slice(0, 40)}`);
  for (const s of idle) s.destroy();
}

// Calls in flight when SIGTERM arrives are answered (finished, refused or
// cancelled), and the daemon exits 0.
async function sigtermUnderLoad() {
  phase = 'sigterm';
  const inflight = [];
  for (let i = 0; i < 6; i++) inflight.push(call('Prove', { submit: submitReq() }, 60000));
  let submitting = true;
  const submitter = (async () => {
    while (submitting) {
      const r = await call('SubmitProof', submitReq(), 10000);
      if (r.code !== 'OK') break;
      await sleep(20);
    }
  })();
  await sleep(300);
  server.kill('SIGTERM');
  const results = await Promise.all(inflight);
  submitting = false;
  await submitter;
  for (const r of results) {
    check(['OK', 'UNAVAILABLE'].includes(r.code), `a call in flight at SIGTERM got ${r.code}`);
    if (r.code === 'OK' && r.resp.result.status === 'COMPLETED') checkProofs(r.resp.result, 1, 'Prove across SIGTERM');
  }
  const { c, s } = await exited;
  check(c === 0, `cuzk serve exited with ${c} ${s} after SIGTERM`);
}

// ---- main ---------------------------------------------------------------------
let exitCode = 1;
try {
  await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('cuzk serve did not start')), 180000);
    server.stdout.on('data', (d) => {
      out += d;
      // "serving on" comes once every circuit is ready ("listening on", with
      // the same addresses, comes first: a request then may find the circuit loading).
      const m = out.match(/serving on [^\n]*status http:\/\/127\.0\.0\.1:(\d+)/);
      if (m) { httpPort = Number(m[1]); clearTimeout(timer); resolve(); }
    });
    server.on('exit', () => { clearTimeout(timer); reject(new Error('cuzk serve exited early: ' + serverErr)); });
  });
  const wtnsPath = path.join(dir, 'demo.wtns'), vkPath = path.join(dir, 'vk.json');
  execFileSync(cuzk, ['demo-witness', '--config', config, '--out', wtnsPath, '--vk', vkPath]);
  wtns = readFileSync(wtnsPath);
  vk = JSON.parse(readFileSync(vkPath, 'utf8'));
  client = new v1.ProvingEngine('unix://' + sock, grpc.credentials.createInsecure(),
    { 'grpc.max_send_message_length': 128 << 20, 'grpc.max_receive_message_length': 128 << 20 });

  await proveSome(4, 2);
  phase = 'idle';
  await sleep(3000);
  const baseline = rssMb();
  const deadline = Date.now() + durationS * 1000;
  while (Date.now() < deadline) {
    await proveSome(8, 4);
    await flood();
    await hostileRequests();
    await httpAbuse();
    stats.rounds++;
  }
  phase = 'idle';
  // Retention (2 s), housekeeping and trimming bring RSS back: waited for,
  // with a minute's hang guard, so that a loaded machine is not a failure.
  let idleEnd = rssMb();
  for (const end = Date.now() + 60000; idleEnd > baseline + rssSlackMb && Date.now() < end; idleEnd = rssMb())
    await sleep(500);
  const peak = Math.max(...rss.map((x) => x.rss_mb));
  check(idleEnd <= baseline + rssSlackMb, `RSS at idle ${idleEnd.toFixed(1)} MB vs baseline ${baseline.toFixed(1)} MB (+${rssSlackMb} allowed)`);
  await proveSome(4, 2);
  await sigtermUnderLoad();
  Object.assign(stats, { baseline_rss_mb: baseline, idle_end_rss_mb: idleEnd, peak_rss_mb: peak });
  exitCode = failures.length ? 1 : 0;
} catch (e) {
  failures.push(String(e.stack || e));
} finally {
  clearInterval(sampler);
  if (client) client.close();
  if (server.exitCode === null) server.kill('SIGKILL');
  const summary = { duration_s: (Date.now() - t0) / 1000, lg, ...stats, failures: failures.slice(0, 50) };
  if (outDir) {
    mkdirSync(outDir, { recursive: true });
    writeFileSync(path.join(outDir, 'soak.json'), JSON.stringify({ ...summary, rss }, null, 1));
    writeFileSync(path.join(outDir, 'rss.csv'), 't_s,rss_mb,phase\n' + rss.map((r) => `${r.t_s},${r.rss_mb.toFixed(1)},${r.phase}`).join('\n') + '\n');
  }
  console.log(JSON.stringify(summary, null, 1));
  if (failures.length) console.error('daemon log (tail):\n' + serverErr.slice(-4000));
  rmSync(dir, { recursive: true, force: true });
  console.log(exitCode === 0 && !failures.length ? 'soak: OK' : `soak: ${failures.length} failure(s)`);
  process.exit(failures.length ? 1 : exitCode);
}
