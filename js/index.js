// spark-nav: Spark's navigation C API (spark/nav_c.h) as a small JavaScript
// module over its WebAssembly build (spark_nav.js, the wasm inside, made by the
// Emscripten build: see README "JavaScript"). The same bits as the native
// library: a mesh baked here has the hash the native bake has.
//
// node:    const SparkNav = require('spark-nav'); const nav = await SparkNav.load();
// browser: <script src="dist/spark_nav.js"></script><script src="index.js"></script>
//          const nav = await SparkNav.load({ createModule: createSparkNavModule });
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else root.SparkNav = factory();
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  const AGENT_STATES = ['idle', 'moving', 'arrived', 'no_path', 'off_mesh'];

  class SparkNavError extends Error {
    constructor(what, code, message) {
      super(`${what}: ${message}`);
      this.name = 'SparkNavError';
      this.code = code; // the spark_nav_result value
    }
  }

  function wrap(m) {
    // Scratch memory for one call's arguments and outputs, freed after it.
    function call(what, fn) {
      const allocations = [];
      const alloc = (bytes) => {
        const p = m._malloc(Math.max(8, bytes));
        if (!p) throw new SparkNavError(what, 9, 'out of memory');
        allocations.push(p);
        return p;
      };
      try {
        return fn(alloc);
      } finally {
        for (const p of allocations) m._free(p);
      }
    }
    function check(what, result) {
      if (result !== 0) {
        const text = m.UTF8ToString ? m.UTF8ToString(m._spark_nav_result_string(result)) : cString(m._spark_nav_result_string(result));
        throw new SparkNavError(what, result, text);
      }
    }
    function cString(p) {
      const heap = m.HEAPU8;
      let end = p;
      while (heap[end] !== 0) end++;
      return new TextDecoder().decode(heap.subarray(p, end));
    }
    const f32 = (p, n) => new Float32Array(m.HEAPU8.buffer, p, n);
    const u32 = (p, n) => new Uint32Array(m.HEAPU8.buffer, p, n);
    const u64 = (p) => new BigUint64Array(m.HEAPU8.buffer, p, 1)[0];
    const i32 = (p) => new Int32Array(m.HEAPU8.buffer, p, 1)[0];
    function putVec3(alloc, v) {
      if (!v || v.length !== 3 || ![...v].every(Number.isFinite)) throw new SparkNavError('point', 1, 'a point is three finite numbers');
      const p = alloc(12);
      f32(p, 3).set(v);
      return p;
    }

    // spark_nav_bake_settings: 4-byte fields (floats, and the ints named below), laid out as in nav_c.h.
    const SETTINGS = ['cellSize', 'cellHeight', 'agentRadius', 'agentHeight', 'stepHeight', 'maxSlopeDeg',
      'maxSimplificationError', 'maxEdgeLen', 'maxVertsPerPoly', 'minRegionArea', 'mergeRegionArea',
      'tileSize', 'threads'];
    const INT_SETTINGS = new Set(['maxVertsPerPoly', 'tileSize', 'threads']);
    function bakeSettings(alloc, settings) {
      const p = alloc(4 * SETTINGS.length);
      m._spark_nav_bake_settings_default(p); // sret: the struct is written at p
      const view = new DataView(m.HEAPU8.buffer, p, 4 * SETTINGS.length);
      SETTINGS.forEach((name, i) => {
        if (settings && settings[name] !== undefined) {
          if (INT_SETTINGS.has(name)) view.setInt32(i * 4, settings[name], true);
          else view.setFloat32(i * 4, settings[name], true);
        }
      });
      return p;
    }

    class Mesh {
      constructor(handle) { this.handle = handle; }
      /** Frees the mesh's memory in the module (a mesh is not collected). */
      destroy() { if (this.handle) m._spark_nav_mesh_destroy(this.handle); this.handle = 0; }
      get polygonCount() {
        return call('polygon count', (alloc) => {
          const out = alloc(4);
          check('polygon count', m._spark_nav_mesh_polygon_count(this.handle, out));
          return u32(out, 1)[0];
        });
      }
      /** XXH3-64 of the mesh's canonical bytes, as a BigInt (the native hashNavMesh). */
      hash() {
        return call('mesh hash', (alloc) => {
          const out = alloc(8);
          check('mesh hash', m._spark_nav_mesh_hash(this.handle, out));
          return u64(out);
        });
      }
      /** A path from → to: its corner points (x, y, z each), length and completeness. */
      path(from, to, halfExtents = [2, 4, 2], capacity = 256) {
        return call('path', (alloc) => {
          const pts = alloc(capacity * 12), count = alloc(8), length = alloc(4), complete = alloc(4);
          check('path', m._spark_nav_path(this.handle, putVec3(alloc, from), putVec3(alloc, to),
            putVec3(alloc, halfExtents), pts, capacity, count, length, complete));
          const n = u32(count, 1)[0];
          return { points: Float32Array.from(f32(pts, n * 3)), length: f32(length, 1)[0], complete: i32(complete) !== 0 };
        });
      }
      /** The nearest point of the mesh within point ± halfExtents. */
      nearest(point, halfExtents = [2, 4, 2]) {
        return call('nearest', (alloc) => {
          const out = alloc(12);
          check('nearest', m._spark_nav_nearest(this.handle, putVec3(alloc, point), putVec3(alloc, halfExtents), out));
          return Array.from(f32(out, 3));
        });
      }
    }

    class World {
      constructor() {
        this.handle = call('world', (alloc) => {
          const out = alloc(4);
          check('world', m._spark_nav_world_create(out));
          return u32(out, 1)[0];
        });
      }
      destroy() { if (this.handle) m._spark_nav_world_destroy(this.handle); this.handle = 0; }
      /** Puts a copy of the mesh under `name`; its id (a BigInt). */
      putMesh(name, mesh) {
        return call('put mesh', (alloc) => {
          const bytes = new TextEncoder().encode(name);
          const s = alloc(bytes.length + 1);
          m.HEAPU8.set(bytes, s);
          m.HEAPU8[s + bytes.length] = 0;
          const out = alloc(8);
          check('put mesh', m._spark_nav_world_put_mesh(this.handle, s, mesh.handle, out));
          return u64(out);
        });
      }
      /** Adds a crowd agent at `position` (default settings); its id (a BigInt). */
      addAgent(meshId, position) {
        return call('add agent', (alloc) => {
          const settings = alloc(32);
          m._spark_nav_agent_settings_default(settings);
          const out = alloc(8);
          check('add agent', m._spark_nav_agent_add(this.handle, meshId, putVec3(alloc, position), settings, out));
          return u64(out);
        });
      }
      setTarget(agentId, target) {
        call('set target', (alloc) => check('set target', m._spark_nav_agent_set_target(this.handle, agentId, putVec3(alloc, target))));
      }
      /** Where an agent is, its velocity and its state. */
      agent(agentId) {
        return call('agent', (alloc) => {
          const p = alloc(12), v = alloc(12), s = alloc(4);
          check('agent', m._spark_nav_agent_get(this.handle, agentId, p, v, s));
          return { position: Array.from(f32(p, 3)), velocity: Array.from(f32(v, 3)), state: AGENT_STATES[i32(s)] };
        });
      }
      /** Advances every crowd by dt seconds (0 < dt <= 1). */
      step(dt) { check('step', m._spark_nav_world_step(this.handle, dt)); }
      /** The world's state hash (a BigInt). */
      hash() {
        return call('world hash', (alloc) => {
          const out = alloc(8);
          check('world hash', m._spark_nav_world_hash(this.handle, out));
          return u64(out);
        });
      }
    }

    return {
      version: () => cString(m._spark_nav_version()),
      /** Bakes triangles (vertices: x, y, z each; indices: 3 per triangle) into a mesh. */
      bake(vertices, indices, settings = {}, oneSided = false) {
        if (!(vertices instanceof Float32Array) || !(indices instanceof Uint32Array))
          throw new SparkNavError('bake', 1, 'vertices is a Float32Array and indices a Uint32Array');
        return call('bake', (alloc) => {
          const v = alloc(vertices.byteLength), ix = alloc(indices.byteLength), out = alloc(4);
          f32(v, vertices.length).set(vertices);
          u32(ix, indices.length).set(indices);
          check('bake', m._spark_nav_mesh_bake(v, vertices.length / 3, ix, indices.length, 0, oneSided ? 1 : 0,
            bakeSettings(alloc, settings), out));
          return new Mesh(u32(out, 1)[0]);
        });
      },
      World,
      SparkNavError,
    };
  }

  /** Loads the WebAssembly module: options.createModule (the browser's global
   *  createSparkNavModule), else options.modulePath, else ./dist/spark_nav.js. */
  async function load(options = {}) {
    let create = options.createModule;
    if (!create) create = require(options.modulePath || './dist/spark_nav.js');
    return wrap(await create());
  }

  return { load, SparkNavError };
});
