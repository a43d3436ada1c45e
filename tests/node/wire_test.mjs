// Wire compatibility from another language: starts `cuzk serve` on a
// temporary unix socket and drives it with @grpc/grpc-js, knowing only the
// .proto file. Proofs are checked with an independent pairing check written
// here over @noble/curves (e(A,B) = e(α,β)·e(IC(x),γ)·e(C,δ)).
//   node tests/node/wire_test.mjs --cuzk build/bin/cuzk
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const vectors = path.join(root, 'tests/vectors');
const require = createRequire(path.join(vectors, 'package.json'));
// Without the npm packages of tests/vectors the test skips (exit 77), saying
// so, as the other tests that need them do.
let grpc, protoLoader, bls12_381;
try {
  grpc = require('@grpc/grpc-js');
  protoLoader = require('@grpc/proto-loader');
  ({ bls12_381 } = await import(pathToFileURL(path.join(vectors, 'node_modules/@noble/curves/bls12-381.js')).href));
} catch (e) {
  console.log(`SKIP: the Node test packages are not installed (${e.code || e.message}); ` +
              'scripts/setup.sh --test installs them');
  process.exit(77);
}

const argIndex = process.argv.indexOf('--cuzk');
const cuzk = argIndex > 0 ? path.resolve(process.argv[argIndex + 1]) : path.join(root, 'build/bin/cuzk');

let checks = 0;
function check(cond, what) {
  if (!cond) throw new Error('FAILED: ' + what);
  checks++;
}

const dir = mkdtempSync(path.join(tmpdir(), 'cuzk-node-'));
const sock = path.join(dir, 'cuzk.sock');
const config = path.join(dir, 'cuzk.toml');
writeFileSync(config, `[server]
listen = "unix://${sock}"
status_listen = ""
[cache]
dir = "${dir}/cache"
[demo]
lg_domain = 8
public_inputs = 2
[pipeline]
prover_threads = 2
`);

// ---- the independent verifier (groth16_check.mjs, over @noble/curves) -------
const { verifyProof: verify, beToBig } = await import('./groth16_check.mjs');

// ---- gRPC from the .proto only ---------------------------------------------
const def = protoLoader.loadSync(path.join(root, 'server/proto/cuzk/v1/cuzk.proto'),
  { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true });
const v1 = grpc.loadPackageDefinition(def).cuzk.v1;
const call = (client, method, req) => new Promise((resolve, reject) =>
  client[method](req, (err, resp) => (err ? reject(err) : resolve(resp))));
const code = async (p) => { try { await p; return 0; } catch (e) { return e.code; } };

const server = spawn(cuzk, ['serve', '--config', config, '--log-level', 'warn'], { stdio: ['ignore', 'pipe', 'inherit'] });
const exited = new Promise((resolve) => server.on('exit', (c, s) => resolve({ c, s })));
try {
  let timer;
  await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (d) => { out += d; if (out.includes('serving on')) resolve(); });
    server.on('exit', () => reject(new Error('cuzk serve exited early')));
    timer = setTimeout(() => reject(new Error('cuzk serve did not start')), 120000);
  }).finally(() => clearTimeout(timer));
  const wtnsPath = path.join(dir, 'demo.wtns'), vkPath = path.join(dir, 'vk.json');
  execFileSync(cuzk, ['demo-witness', '--config', config, '--out', wtnsPath, '--vk', vkPath]);
  const wtns = readFileSync(wtnsPath);
  const vk = JSON.parse(readFileSync(vkPath, 'utf8'));
  const client = new v1.ProvingEngine('unix://' + sock, grpc.credentials.createInsecure(),
    { 'grpc.max_send_message_length': 128 << 20, 'grpc.max_receive_message_length': 128 << 20 });

  const proved = await call(client, 'Prove',
    { submit: { proof_kind: 'GROTH16_CIRCUIT', circuit_id: 'demo', witness: wtns, priority: 'HIGH' } });
  const r = proved.result;
  check(r.status === 'COMPLETED', 'Prove completes: ' + r.error_message);
  check(r.proof.length === 192, 'one 192-byte proof');
  check(r.public_inputs.length === 2 && r.public_inputs.every((x) => x.length === 32), 'two 32-byte public inputs');
  check(verify(vk, r.proof, r.public_inputs.map(beToBig)), 'the proof verifies (noble pairing check)');
  check(!verify(vk, r.proof, [beToBig(r.public_inputs[0]) + 1n, beToBig(r.public_inputs[1])]), 'wrong input rejected');
  check(Number(r.total_ms) >= Number(r.gpu_compute_ms), 'timings present');

  const sub = await call(client, 'SubmitProof',
    { request_id: 'node-1', proof_kind: 'GROTH16_CIRCUIT', circuit_id: 'demo', witness: wtns, witnesses: [wtns, wtns, wtns] });
  check(sub.job_id.length > 0, 'SubmitProof returns a job id');
  const again = await call(client, 'SubmitProof',
    { request_id: 'node-1', proof_kind: 'GROTH16_CIRCUIT', circuit_id: 'demo', witness: wtns, witnesses: [wtns, wtns, wtns] });
  check(again.job_id === sub.job_id, 'same request_id, same job');
  check(await code(call(client, 'SubmitProof', { request_id: 'node-1', proof_kind: 'GROTH16_CIRCUIT', circuit_id: 'demo', witness: wtns })) === grpc.status.ALREADY_EXISTS, 'ALREADY_EXISTS');
  const quick = await call(client, 'AwaitProof', { job_id: sub.job_id, timeout_ms: 1 });
  check(quick.status === 'TIMEOUT' || quick.status === 'COMPLETED', 'AwaitProof honours timeout_ms');
  const done = await call(client, 'AwaitProof', { job_id: sub.job_id, timeout_ms: 0 });
  check(done.status === 'COMPLETED' && done.proof.length === 4 * 192, 'four partitions, in order');
  for (let i = 0; i < 4; i++) {
    const pub = done.public_inputs.slice(2 * i, 2 * i + 2).map(beToBig);
    check(verify(vk, done.proof.subarray(192 * i, 192 * (i + 1)), pub), `partition ${i} verifies`);
  }

  check(await code(call(client, 'SubmitProof', { proof_kind: 'GROTH16_CIRCUIT', circuit_id: 'nope', witness: wtns })) === grpc.status.NOT_FOUND, 'unknown circuit: NOT_FOUND');
  check(await code(call(client, 'SubmitProof', { proof_kind: 'GROTH16_CIRCUIT', circuit_id: 'demo', witness: Buffer.from('junk') })) === grpc.status.INVALID_ARGUMENT, 'malformed witness: INVALID_ARGUMENT');
  check(await code(call(client, 'CancelProof', { job_id: 'job-404' })) === grpc.status.NOT_FOUND, 'unknown job: NOT_FOUND');
  // A Filecoin kind whose circuit is not registered is refused at submit, naming the missing entry.
  check(await code(call(client, 'Prove', { submit: { proof_kind: 'POREP_SEAL_COMMIT', vanilla_proofs: [Buffer.from('x')] } })) === grpc.status.NOT_FOUND,
        'Filecoin kinds without their circuit: NOT_FOUND');

  const st = await call(client, 'GetStatus', {});
  check(Number(st.total_proofs_completed) === 2 && st.loaded_srs[0].tier === 'HOT', 'GetStatus');
  const ev = await call(client, 'EvictSRS', { circuit_id: 'demo' });
  check(ev.was_loaded && Number(ev.freed_bytes) > 0, 'EvictSRS frees');
  const pre = await call(client, 'PreloadSRS', { circuit_id: 'demo' });
  check(!pre.already_loaded, 'PreloadSRS loads again');
  const m = await call(client, 'GetMetrics', {});
  check(m.prometheus_text.includes('cuzk_proofs_completed_total{kind="GROTH16_CIRCUIT"} 2'), 'GetMetrics');
  client.close();
} finally {
  server.kill('SIGTERM');
  const { c, s } = await exited;
  rmSync(dir, { recursive: true, force: true });
  if (c !== 0) { console.error(`cuzk serve exited with ${c} ${s}`); process.exitCode = 1; }
}
if (!process.exitCode) console.log(`node wire test: ${checks} checks passed`);
