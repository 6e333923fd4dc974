#!/usr/bin/env node
// Independent Groth16 verifier for snarkjs-format JSON, built on @noble/curves (MIT).
// TEST ONLY: a second oracle next to `snarkjs groth16 verify`. Unlike snarkjs it
// also checks that every point lies in the prime-order subgroup (G1 and G2).
//
// Usage: node noble_verify.mjs <bn128|bls12381> <verification_key.json> <public.json> <proof.json>
// Exit:  0 valid, 1 invalid (including malformed/off-curve/out-of-range values),
//        2 usage error or unreadable file.
//
// Check: e(-A, B) * e(vk_x, gamma) * e(C, delta) * e(alpha, beta) == 1,
//        vk_x = IC[0] + sum_i pub[i] * IC[i+1].
// Run it from anywhere; it resolves @noble/curves from tools/node/node_modules.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const nodeModules = join(here, '..', '..', 'tools', 'node', 'node_modules');

function usage(msg) {
  if (msg) console.error(`noble_verify: ${msg}`);
  console.error('usage: node noble_verify.mjs <bn128|bls12381> <vk.json> <public.json> <proof.json>');
  process.exit(2);
}

class Invalid extends Error {}
const fail = (msg) => { throw new Invalid(msg); };

async function loadCurve(name) {
  // Resolve from the repo's tools/node, not from the cwd.
  const req = createRequire(join(nodeModules, 'noop.js'));
  const sub = name === 'bn128' ? '@noble/curves/bn254.js' : '@noble/curves/bls12-381.js';
  let path;
  try { path = req.resolve(sub); } catch (e) { usage(`cannot find ${sub} (run scripts/setup): ${e.message}`); }
  const mod = await import(pathToFileURL(path).href);
  return name === 'bn128' ? mod.bn254 : mod.bls12_381;
}

function readJson(path) {
  let text;
  try { text = readFileSync(path, 'utf8'); } catch (e) { usage(`cannot read ${path}: ${e.message}`); }
  try { return JSON.parse(text); } catch (e) { fail(`${path}: not valid JSON: ${e.message}`); }
}

function dec(s, what) {
  if (typeof s !== 'string' || !/^[0-9]+$/.test(s)) fail(`${what}: not a decimal string: ${JSON.stringify(s)}`);
  return BigInt(s);
}

function g1(curve, v, what) {
  const P = curve.G1.Point;
  if (!Array.isArray(v) || v.length !== 3) fail(`${what}: expected [x, y, z]`);
  const [x, y, z] = v.map((s, i) => dec(s, `${what}[${i}]`));
  if (z === 0n) return P.ZERO;
  if (z !== 1n) fail(`${what}: z must be 1 (affine) or 0 (infinity)`);
  const p = curve.fields.Fp.ORDER;
  if (x >= p || y >= p) fail(`${what}: coordinate >= p`);
  let pt;
  try { pt = P.fromAffine({ x, y }); pt.assertValidity(); } catch (e) { fail(`${what}: ${e.message}`); }
  return pt;
}

function g2(curve, v, what) {
  const P = curve.G2.Point;
  if (!Array.isArray(v) || v.length !== 3 || !v.every((c) => Array.isArray(c) && c.length === 2))
    fail(`${what}: expected [[x0,x1],[y0,y1],[z0,z1]]`);
  const [[x0, x1], [y0, y1], [z0, z1]] = v.map((c, i) => c.map((s, j) => dec(s, `${what}[${i}][${j}]`)));
  if (z0 === 0n && z1 === 0n) return P.ZERO;
  if (z0 !== 1n || z1 !== 0n) fail(`${what}: z must be [1,0] (affine) or [0,0] (infinity)`);
  const p = curve.fields.Fp.ORDER;
  if ([x0, x1, y0, y1].some((c) => c >= p)) fail(`${what}: coordinate >= p`);
  let pt;
  // snarkjs JSON stores Fp2 elements as [c0, c1] (real part first), same as noble's {c0, c1}.
  try { pt = P.fromAffine({ x: { c0: x0, c1: x1 }, y: { c0: y0, c1: y1 } }); pt.assertValidity(); }
  catch (e) { fail(`${what}: ${e.message}`); }
  return pt;
}

async function main() {
  const [curveName, vkPath, pubPath, proofPath] = process.argv.slice(2);
  if (!proofPath || process.argv.length > 6) usage();
  if (curveName !== 'bn128' && curveName !== 'bls12381') usage(`unknown curve '${curveName}'`);
  const curve = await loadCurve(curveName);
  const r = curve.fields.Fr.ORDER;

  const vk = readJson(vkPath);
  const pub = readJson(pubPath);
  const proof = readJson(proofPath);

  if (vk.protocol !== 'groth16') fail(`vk protocol is ${JSON.stringify(vk.protocol)}, not groth16`);
  if (proof.protocol !== undefined && proof.protocol !== 'groth16') fail('proof protocol is not groth16');
  const norm = (c) => (/^(bn128|bn254|altbn128)$/i.test(c) ? 'bn128' : String(c).toLowerCase());
  if (vk.curve !== undefined && norm(vk.curve) !== curveName) fail(`vk curve is ${vk.curve}, expected ${curveName}`);
  if (proof.curve !== undefined && norm(proof.curve) !== curveName) fail(`proof curve is ${proof.curve}, expected ${curveName}`);

  if (!Array.isArray(pub)) fail('public.json is not an array');
  if (!Array.isArray(vk.IC) || vk.IC.length !== pub.length + 1)
    fail(`vk has ${Array.isArray(vk.IC) ? vk.IC.length - 1 : '?'} public inputs, public.json has ${pub.length}`);
  if (vk.nPublic !== undefined && vk.nPublic !== pub.length) fail('vk.nPublic != public.json length');
  const pubs = pub.map((s, i) => {
    const v = dec(s, `public[${i}]`);
    if (v >= r) fail(`public[${i}] >= r`);
    return v;
  });

  const alpha = g1(curve, vk.vk_alpha_1, 'vk_alpha_1');
  const beta = g2(curve, vk.vk_beta_2, 'vk_beta_2');
  const gamma = g2(curve, vk.vk_gamma_2, 'vk_gamma_2');
  const delta = g2(curve, vk.vk_delta_2, 'vk_delta_2');
  const ic = vk.IC.map((p, i) => g1(curve, p, `IC[${i}]`));

  const A = g1(curve, proof.pi_a, 'pi_a');
  const B = g2(curve, proof.pi_b, 'pi_b');
  const C = g1(curve, proof.pi_c, 'pi_c');

  let vkx = ic[0];
  pubs.forEach((s, i) => { vkx = vkx.add(ic[i + 1].multiplyUnsafe(s)); });

  // A pairing with a ZERO argument is 1 in GT; noble's pairingBatch refuses ZERO, so drop such terms.
  const terms = [
    { g1: A.negate(), g2: B },
    { g1: vkx, g2: gamma },
    { g1: C, g2: delta },
    { g1: alpha, g2: beta },
  ].filter((t) => !t.g1.is0() && !t.g2.is0());
  const gt = curve.pairingBatch(terms);
  if (!curve.fields.Fp12.eql(gt, curve.fields.Fp12.ONE)) fail('pairing check failed');
}

main().then(
  () => { console.log('noble_verify: OK'); process.exit(0); },
  (e) => {
    if (e instanceof Invalid) { console.error(`noble_verify: INVALID: ${e.message}`); process.exit(1); }
    console.error(`noble_verify: error: ${e && e.stack ? e.stack : e}`);
    process.exit(1);
  },
);
