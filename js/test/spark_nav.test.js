// The JavaScript package over the WebAssembly build (node's test runner):
// the dungeon baked here has the hash the native suite pins (bake_dungeon in
// tests/determinism/expected.txt); a path, a crowd step and bad input.
// SPARK_NAV_MODULE names the built spark_nav.js (default ../dist/spark_nav.js).
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const SparkNav = require('..');

const root = path.join(__dirname, '..', '..');
const modulePath = process.env.SPARK_NAV_MODULE || path.join(__dirname, '..', 'dist', 'spark_nav.js');

// The vertices and triangles of an OBJ file (faces fanned).
function readObj(file) {
  const vertices = [], indices = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f[0] === 'v') vertices.push(Number(f[1]), Number(f[2]), Number(f[3]));
    else if (f[0] === 'f') {
      const c = f.slice(1).map((s) => parseInt(s, 10) - 1);
      for (let k = 2; k < c.length; k++) indices.push(c[0], c[k - 1], c[k]);
    }
  }
  return { vertices: Float32Array.from(vertices), indices: Uint32Array.from(indices) };
}

function pinnedHash(job) {
  const text = fs.readFileSync(path.join(root, 'tests', 'determinism', 'expected.txt'), 'utf8');
  const line = text.split('\n').find((l) => l.startsWith(`short ${job} `));
  assert.ok(line, `${job} is pinned`);
  return BigInt('0x' + line.split(/\s+/)[2]);
}

let nav;
test.before(async () => {
  nav = await SparkNav.load({ modulePath });
});

test('the dungeon baked in WebAssembly has the native hash', () => {
  const { vertices, indices } = readObj(path.join(root, 'tests', 'determinism', 'data', 'dungeon.obj'));
  const mesh = nav.bake(vertices, indices);
  try {
    assert.ok(mesh.polygonCount > 100);
    assert.strictEqual(mesh.hash().toString(16).padStart(16, '0'), pinnedHash('bake_dungeon').toString(16).padStart(16, '0'));
  } finally {
    mesh.destroy();
  }
});

// A 20 × 20 m floor with a wall across the middle, a 4 m gap at its end.
function floorWithWall() {
  const v = [-10, 0, -10, 10, 0, -10, 10, 0, 10, -10, 0, 10];
  const ix = [0, 2, 1, 0, 3, 2];
  const box = (x0, z0, x1, z1) => {
    const b = v.length / 3;
    for (let k = 0; k < 8; k++) v.push(k & 1 ? x1 : x0, k & 2 ? 3 : -1, k & 4 ? z1 : z0);
    for (const f of [[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1], [2, 3, 7], [2, 7, 6],
      [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]]) ix.push(b + f[0], b + f[1], b + f[2]);
  };
  box(-10, -0.5, 6, 0.5);
  return nav.bake(Float32Array.from(v), Uint32Array.from(ix));
}

test('a path goes round the wall', () => {
  const mesh = floorWithWall();
  try {
    const p = mesh.path([-5, 0, -5], [-5, 0, 5]);
    assert.ok(p.complete);
    assert.ok(p.points.length / 3 >= 3, 'it turns at the wall end');
    assert.ok(p.length > 20 && p.length < 30, `length ${p.length}`);
    const last = Array.from(p.points.slice(-3));
    assert.ok(Math.abs(last[0] + 5) < 1e-3 && Math.abs(last[2] - 5) < 1e-3);
  } finally {
    mesh.destroy();
  }
});

test('a crowd agent walks to its target, the same steps giving the same hash', () => {
  const run = () => {
    const mesh = floorWithWall();
    const world = new nav.World();
    try {
      const meshId = world.putMesh('floor', mesh);
      const agent = world.addAgent(meshId, [-5, 0, -5]);
      world.setTarget(agent, [5, 0, -5]);
      for (let s = 0; s < 300; s++) world.step(1 / 30);
      return { state: world.agent(agent), hash: world.hash() };
    } finally {
      world.destroy();
      mesh.destroy();
    }
  };
  const a = run(), b = run();
  assert.strictEqual(a.state.state, 'arrived');
  assert.ok(Math.abs(a.state.position[0] - 5) < 0.3);
  assert.strictEqual(a.hash, b.hash);
});

test('bad input is a SparkNavError with the C result code, not a crash', () => {
  assert.throws(() => nav.bake([0, 0, 0], new Uint32Array(3)), (e) => e instanceof nav.SparkNavError && e.code === 1);
  // An index past the vertices: the bake's E_NAV_CONFIG, SPARK_NAV_CONFIG (7) in the C API.
  assert.throws(() => nav.bake(new Float32Array(9), Uint32Array.from([0, 1, 7])), (e) => e.code === 7);
  assert.throws(() => nav.bake(new Float32Array(9), Uint32Array.from([0, 1])), (e) => e.code === 1, 'not whole triangles');
  const mesh = floorWithWall();
  try {
    assert.throws(() => mesh.path([0, 0, 0], [NaN, 0, 0]), (e) => e.code === 1);
    assert.throws(() => mesh.path([500, 0, 500], [0, 0, 0]), (e) => e.code === 3, 'off mesh');
    const world = new nav.World();
    assert.throws(() => world.setTarget(123n, [0, 0, 0]), (e) => e.code === 8, 'unknown id');
    world.destroy();
  } finally {
    mesh.destroy();
  }
});

