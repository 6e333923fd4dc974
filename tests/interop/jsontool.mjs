#!/usr/bin/env node
// Small helpers for tests/interop/interop.sh (plain node, no dependencies).
//   same-json <a.json> <b.json>            exit 0 if the parsed JSON values are equal
//   same-vk <a.json> <b.json>              same protocol/curve/nPublic/alpha/beta/gamma/delta/IC
//   check-proof <curve> <proof.json>       snarkjs proof schema: protocol groth16, curve, shapes
//   tamper-a <proof.json> <out.json>       pi_a[0] += 1 (makes pi_a off-curve)
//   tamper-c <proof.json> <out.json>       pi_c := pi_a (valid point, wrong proof)
//   tamper-pub <public.json> <out.json>    public[0] -= 1 (or 0 -> 1): stays < r
//   corrupt-wtns <in.wtns> <out.wtns>      flip the low bit of the last witness value
//   corrupt-magic <in> <out>               change the first byte of the 4-byte magic
import { readFileSync, writeFileSync } from 'node:fs';

const [cmd, ...args] = process.argv.slice(2);
const die = (msg, code = 1) => { console.error(`jsontool ${cmd}: ${msg}`); process.exit(code); };
const readJson = (p) => {
  try { return JSON.parse(readFileSync(p, 'utf8')); } catch (e) { die(`${p}: ${e.message}`); }
};
const writeJson = (p, v) => writeFileSync(p, JSON.stringify(v, null, 1) + '\n');

function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).sort(), kb = Object.keys(b).sort();
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) return false;
  return ka.every((k) => deepEqual(a[k], b[k]));
}

const isDec = (s) => typeof s === 'string' && /^[0-9]+$/.test(s);

switch (cmd) {
  case 'same-json': {
    const [a, b] = args.map(readJson);
    if (!deepEqual(a, b)) die(`${args[0]} and ${args[1]} differ:\n  ${JSON.stringify(a)}\n  ${JSON.stringify(b)}`);
    break;
  }
  case 'same-vk': {
    const [a, b] = args.map(readJson);
    for (const k of ['protocol', 'curve', 'nPublic', 'vk_alpha_1', 'vk_beta_2', 'vk_gamma_2', 'vk_delta_2', 'IC']) {
      if (!deepEqual(a[k], b[k])) die(`${args[0]} and ${args[1]} differ in ${k}:\n  ${JSON.stringify(a[k])}\n  ${JSON.stringify(b[k])}`);
    }
    break;
  }
  case 'check-proof': {
    const [curve, path] = args;
    const p = readJson(path);
    if (p.protocol !== 'groth16') die(`protocol is ${JSON.stringify(p.protocol)}, expected "groth16"`);
    if (p.curve !== curve) die(`curve is ${JSON.stringify(p.curve)}, expected "${curve}"`);
    const g1 = (v) => Array.isArray(v) && v.length === 3 && v.every(isDec);
    const g2 = (v) => Array.isArray(v) && v.length === 3 && v.every((c) => Array.isArray(c) && c.length === 2 && c.every(isDec));
    if (!g1(p.pi_a)) die('pi_a is not [x, y, z] decimal strings');
    if (!g2(p.pi_b)) die('pi_b is not [[x0,x1],[y0,y1],[z0,z1]] decimal strings');
    if (!g1(p.pi_c)) die('pi_c is not [x, y, z] decimal strings');
    break;
  }
  case 'tamper-a': {
    const p = readJson(args[0]);
    p.pi_a[0] = (BigInt(p.pi_a[0]) + 1n).toString();
    writeJson(args[1], p);
    break;
  }
  case 'tamper-c': {
    const p = readJson(args[0]);
    p.pi_c = [...p.pi_a];
    writeJson(args[1], p);
    break;
  }
  case 'tamper-pub': {
    const p = readJson(args[0]);
    if (!Array.isArray(p) || p.length === 0) die('public.json has no values');
    const v = BigInt(p[0]);
    p[0] = (v === 0n ? 1n : v - 1n).toString();
    writeJson(args[1], p);
    break;
  }
  case 'corrupt-wtns': {
    // .wtns: "wtns", u32 version, u32 nSections, then {u32 id, u64 size, bytes}; section 1 starts
    // with u32 n8; section 2 holds the witness values (n8 bytes each, little-endian).
    const buf = Buffer.from(readFileSync(args[0]));
    if (buf.toString('latin1', 0, 4) !== 'wtns') die('not a wtns file');
    const nSections = buf.readUInt32LE(8);
    let off = 12, n8 = 0, sec2 = null;
    for (let i = 0; i < nSections; i++) {
      const id = buf.readUInt32LE(off);
      const size = Number(buf.readBigUInt64LE(off + 4));
      if (id === 1) n8 = buf.readUInt32LE(off + 12);
      if (id === 2) sec2 = { start: off + 12, size };
      off += 12 + size;
    }
    if (!n8 || !sec2 || sec2.size < 2 * n8) die('wtns has no witness section');
    const last = sec2.start + sec2.size - n8; // lowest byte of the last witness value
    buf[last] ^= 1;
    writeFileSync(args[1], buf);
    break;
  }
  case 'corrupt-magic': {
    const buf = Buffer.from(readFileSync(args[0]));
    buf[0] ^= 0x20; // "zkey" -> "Zkey"
    writeFileSync(args[1], buf);
    break;
  }
  default:
    die(`unknown command ${JSON.stringify(cmd)}`, 2);
}
