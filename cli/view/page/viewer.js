// The Spark recording viewer (spark view). Reads a recording (docs/recording.md),
// replays it frame by frame and draws it with Canvas 2D, by hand: a top-down
// view (pan, zoom) and a 3D orbit view (polygons projected and painted far to
// near). Nothing is loaded from the network; the server, when there is one,
// serves the recordings and answers path queries with nav.path.
'use strict';
(function () {
  const KEYFRAME_EVERY = 50; // frames between kept states (a scrub replays at most this many)
  const TRAIL_FRAMES = 40;   // frames of trail behind each agent
  const AREA_COLOURS = [[64, 140, 200], [90, 170, 110], [200, 160, 70], [170, 100, 190], [200, 90, 90], [90, 190, 190]];
  const STATE_COLOURS = { idle: '#a0a6b0', moving: '#f2f2f2', arrived: '#7fd68e', no_path: '#ff6b5e', off_mesh: '#ff9f40' };
  const STATUS_NAMES = { R: 'running', S: 'success', F: 'failure', I: 'idle' };

  const $ = (id) => document.getElementById(id);
  const canvas = $('canvas');
  const ctx = canvas.getContext('2d');
  const W = canvas.width, H = canvas.height;

  // ---- The recording -------------------------------------------------------

  const S = {
    server: !window.SPARK_RECORDING, // served by `spark view` (else a --html page)
    recordingIndex: 0,
    header: null,
    frames: [],
    keyframes: [],
    events: [],
    world: null,     // the state at `frame`
    trails: new Map(),
    frame: 0,
    playing: false,
    speed: 1,
    view: 'top',
    cam: { cx: 0, cz: 0, scale: 10 },
    orbit: { yaw: 0.7, pitch: 0.9, dist: 40, tx: 0, ty: 0, tz: 0 },
    bounds: null,
    selected: null,  // agent id
    query: { active: false, points: [], answer: null, error: '' },
    drawn: {},       // name or id -> {x, y, z, sx, sy} as last drawn
  };

  async function inflate(bytes) {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return await new Response(stream).text();
  }

  function parseRecording(text) {
    const lines = text.split('\n');
    const header = JSON.parse(lines[0]);
    if (header.format !== 'spark-recording') throw new Error('not a Spark recording');
    if (!(header.version >= 1 && header.version <= 1)) throw new Error('recording version ' + header.version + ' is newer than this viewer');
    const frames = [];
    for (let i = 1; i < lines.length; ++i) if (lines[i]) frames.push(JSON.parse(lines[i]));
    return { header, frames };
  }

  function emptyWorld() {
    return { agents: new Map(), order: [], objects: new Map(), meshes: new Map(), obst: [], links: [], trees: new Map(), brains: new Map() };
  }

  function cloneWorld(w) {
    const agents = new Map();
    for (const [id, a] of w.agents) agents.set(id, { ...a, p: a.p.slice(), d: a.d.slice(), v: a.v.slice(), h: a.h.slice() });
    const objects = new Map();
    for (const [n, o] of w.objects) objects.set(n, { ...o, p: o.p.slice(), d: o.d.slice() });
    const brains = new Map();
    for (const [n, b] of w.brains) brains.set(n, { ...b, bb: { ...b.bb } });
    return { agents, order: w.order.slice(), objects, meshes: new Map(w.meshes), obst: w.obst, links: w.links, trees: new Map(w.trees), brains };
  }

  const preparedMeshes = new WeakMap();
  function prepareMesh(doc) {
    if (!doc || typeof doc !== 'object') return null;
    let m = preparedMeshes.get(doc);
    if (m) return m;
    const is2d = doc.dimensions === 2;
    const verts = (doc.vertices || []).map((v) => (is2d ? [v[0], 0, v[1]] : [v[0], v[1], v[2]]));
    const polys = doc.polygons || [];
    // Walls: edges that only one polygon has.
    const edgeCount = new Map();
    const key = (a, b) => (a < b ? a + ',' + b : b + ',' + a);
    for (const poly of polys) for (let i = 0; i < poly.length; ++i) {
      const k = key(poly[i], poly[(i + 1) % poly.length]);
      edgeCount.set(k, (edgeCount.get(k) || 0) + 1);
    }
    const walls = [];
    for (const poly of polys) for (let i = 0; i < poly.length; ++i) {
      const a = poly[i], b = poly[(i + 1) % poly.length];
      if (edgeCount.get(key(a, b)) === 1) walls.push([a, b]);
    }
    let minY = Infinity, maxY = -Infinity;
    for (const v of verts) { minY = Math.min(minY, v[1]); maxY = Math.max(maxY, v[1]); }
    // Tile borders: each tile's box (x-z) over its vertices.
    const tiles = [];
    if (doc.tiles && Array.isArray(doc.tiles.list)) for (const t of doc.tiles.list) {
      let x0 = Infinity, z0 = Infinity, x1 = -Infinity, z1 = -Infinity;
      for (let p = t[2]; p < t[2] + t[3]; ++p) for (const vi of polys[p] || []) {
        const v = verts[vi]; x0 = Math.min(x0, v[0]); x1 = Math.max(x1, v[0]); z0 = Math.min(z0, v[2]); z1 = Math.max(z1, v[2]);
      }
      if (x0 <= x1) tiles.push([x0, z0, x1, z1]);
    }
    m = { doc, is2d, verts, polys, areas: doc.areas || [], walls, minY, maxY, tiles };
    preparedMeshes.set(doc, m);
    return m;
  }

  function applyFrame(w, f) {
    if (f.m) for (const m of f.m) w.meshes.set(m.name, prepareMesh(m.doc));
    if (f.mgone) for (const n of f.mgone) w.meshes.delete(n);
    if (f.obst) w.obst = f.obst;
    if (f.links) w.links = f.links;
    let reorder = false;
    if (f.new) for (const a of f.new) {
      w.agents.set(a.id, { id: a.id, name: a.name, mesh: a.mesh, radius: a.radius / 1000, height: a.height / 1000,
        p: [0, 0, 0], d: [0, 0, 0], v: [0, 0, 0], h: [0, 0], state: '', reason: 'none', corners: [], corridor: [] });
      reorder = true;
    }
    if (f.gone) for (const id of f.gone) { w.agents.delete(id); reorder = true; }
    if (reorder) w.order = Array.from(w.agents.keys()).sort((a, b) => a - b);
    // Every agent moves on by its last displacement; the groups add their residuals.
    for (const a of w.agents.values()) { a.p[0] += a.d[0]; a.p[1] += a.d[1]; a.p[2] += a.d[2]; }
    if (f.a) {
      let rank = -1;
      for (let k = 0; k + 9 <= f.a.length; k += 9) {
        rank += f.a[k];
        const a = w.agents.get(w.order[rank]);
        if (!a) break;
        for (let c = 0; c < 3; ++c) { a.p[c] += f.a[k + 1 + c]; a.d[c] += f.a[k + 1 + c]; a.v[c] += f.a[k + 4 + c]; }
        a.h[0] += f.a[k + 7]; a.h[1] += f.a[k + 8];
      }
    }
    if (f.s) for (let k = 0; k + 1 < f.s.length; k += 2) { const a = w.agents.get(f.s[k]); if (a) a.state = f.s[k + 1]; }
    if (f.why) for (let k = 0; k + 1 < f.why.length; k += 2) { const a = w.agents.get(f.why[k]); if (a) a.reason = f.why[k + 1]; }
    if (f.c) for (const [id, cs] of f.c) { const a = w.agents.get(id); if (a) a.corners = cs; }
    if (f.r) for (const [id, r] of f.r) { const a = w.agents.get(id); if (a) a.corridor = r; }
    if (f.onew) for (const o of f.onew) w.objects.set(o.name, { name: o.name, radius: o.radius / 1000, height: o.height / 1000, p: [0, 0, 0], d: [0, 0, 0] });
    for (const o of w.objects.values()) { o.p[0] += o.d[0]; o.p[1] += o.d[1]; o.p[2] += o.d[2]; }
    if (f.o) for (const [name, rx, ry, rz] of f.o) {
      const o = w.objects.get(name);
      if (!o) continue;
      o.p[0] += rx; o.p[1] += ry; o.p[2] += rz; o.d[0] += rx; o.d[1] += ry; o.d[2] += rz;
    }
    if (f.trees) for (const t of f.trees) w.trees.set(t.name, t.nodes);
    if (f.b) for (const b of f.b) {
      let brain = w.brains.get(b.agent);
      if (!brain) { brain = { agent: b.agent, tree: '', n: '', bb: {} }; w.brains.set(b.agent, brain); }
      if (b.tree !== undefined) brain.tree = b.tree;
      if (b.n !== undefined) brain.n = b.n;
      if (b.bb) brain.bb = { ...brain.bb, ...b.bb };
      if (b.bbdel) { brain.bb = { ...brain.bb }; for (const k of b.bbdel) delete brain.bb[k]; }
    }
    if (f.bgone) for (const n of f.bgone) w.brains.delete(n);
  }

  function buildIndex() {
    S.keyframes = [];
    S.events = [];
    const w = emptyWorld();
    for (let i = 0; i < S.frames.length; ++i) {
      applyFrame(w, S.frames[i]);
      if (i % KEYFRAME_EVERY === 0) S.keyframes.push(cloneWorld(w));
      if (S.frames[i].e) for (const e of S.frames[i].e) S.events.push({ fi: i, frame: S.frames[i].frame, ...e });
    }
    // Bounds of everything drawn: meshes, then agents and objects.
    let x0 = Infinity, z0 = Infinity, x1 = -Infinity, z1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    const grow = (x, y, z) => { x0 = Math.min(x0, x); x1 = Math.max(x1, x); z0 = Math.min(z0, z); z1 = Math.max(z1, z); y0 = Math.min(y0, y); y1 = Math.max(y1, y); };
    for (const m of w.meshes.values()) if (m) for (const v of m.verts) grow(v[0], v[1], v[2]);
    if (!(x0 <= x1)) for (const a of w.agents.values()) grow(a.p[0] / 1000, a.p[1] / 1000, a.p[2] / 1000);
    if (!(x0 <= x1)) { x0 = z0 = y0 = -10; x1 = z1 = y1 = 10; }
    S.bounds = { x0, z0, x1, z1, y0, y1 };
  }

  // The state after frame i, and each agent's trail over the frames before it.
  function seekWorld(i) {
    const start = Math.max(0, i - TRAIL_FRAMES);
    const k = Math.floor(start / KEYFRAME_EVERY);
    const w = cloneWorld(S.keyframes[k]);
    const trails = new Map();
    const note = (fi) => {
      if (fi < start) return;
      for (const a of w.agents.values()) {
        let t = trails.get(a.id);
        if (!t) trails.set(a.id, (t = []));
        t.push([a.p[0] / 1000, a.p[1] / 1000, a.p[2] / 1000]);
      }
    };
    note(k * KEYFRAME_EVERY);
    for (let fi = k * KEYFRAME_EVERY + 1; fi <= i; ++fi) { applyFrame(w, S.frames[fi]); note(fi); }
    return { world: w, trails };
  }

  // ---- Views ---------------------------------------------------------------

  function fit() {
    const b = S.bounds;
    S.cam.cx = (b.x0 + b.x1) / 2; S.cam.cz = (b.z0 + b.z1) / 2;
    S.cam.scale = Math.min((W - 40) / Math.max(b.x1 - b.x0, 1e-3), (H - 40) / Math.max(b.z1 - b.z0, 1e-3));
    S.orbit.tx = S.cam.cx; S.orbit.tz = S.cam.cz; S.orbit.ty = (b.y0 + b.y1) / 2;
    S.orbit.dist = Math.max(b.x1 - b.x0, b.z1 - b.z0) * 1.2 + 5;
  }

  // A world point on the screen, and its depth (3D view), or null behind the camera.
  function project(x, y, z) {
    if (S.view === 'top') return [(x - S.cam.cx) * S.cam.scale + W / 2, (z - S.cam.cz) * S.cam.scale + H / 2, 0];
    const o = S.orbit;
    const cy = Math.cos(o.yaw), sy = Math.sin(o.yaw), cp = Math.cos(o.pitch), sp = Math.sin(o.pitch);
    // Camera on a sphere round the target, looking at it.
    // z runs down the top view: the ground turns as (x, -z) so the 3D view is not its mirror image.
    const dx = x - o.tx, dy = y - o.ty, dz = o.tz - z;
    const rx = cy * dx - sy * dz;             // right
    const rz = sy * dx + cy * dz;             // forward along the ground
    const up = cp * dy + sp * rz;             // screen up
    const depth = o.dist - (cp * rz - sp * dy);
    if (depth < 0.1) return null;
    const f = (H * 1.1) / depth;
    return [W / 2 + rx * f, H / 2 - up * f, depth];
  }

  function unprojectTop(sx, sy) {
    return [(sx - W / 2) / S.cam.scale + S.cam.cx, (sy - H / 2) / S.cam.scale + S.cam.cz];
  }

  function meshColour(m, poly) {
    const base = AREA_COLOURS[(m.areas[poly] || 0) % AREA_COLOURS.length];
    let y = 0;
    for (const vi of m.polys[poly]) y += m.verts[vi][1];
    y /= m.polys[poly].length;
    const t = m.maxY > m.minY ? (y - m.minY) / (m.maxY - m.minY) : 0.5;
    const shade = 0.55 + 0.45 * t; // higher is lighter
    return 'rgb(' + base.map((c) => Math.round(c * shade)).join(',') + ')';
  }

  function path(points) {
    ctx.beginPath();
    let first = true;
    for (const p of points) {
      if (!p) { first = true; continue; }
      if (first) ctx.moveTo(p[0], p[1]); else ctx.lineTo(p[0], p[1]);
      first = false;
    }
  }

  function draw() {
    const w = S.world;
    ctx.fillStyle = '#111317';
    ctx.fillRect(0, 0, W, H);
    if (!w) return;
    // Meshes: polygons (painted far to near in 3D), edges, walls, tile borders.
    const faces = [];
    for (const m of w.meshes.values()) {
      if (!m) continue;
      for (let p = 0; p < m.polys.length; ++p) {
        const pts = m.polys[p].map((vi) => project(m.verts[vi][0], m.verts[vi][1], m.verts[vi][2]));
        if (pts.some((q) => !q)) continue;
        faces.push({ pts, depth: pts.reduce((s, q) => s + q[2], 0) / pts.length, colour: meshColour(m, p) });
      }
    }
    if (S.view === '3d') faces.sort((a, b) => b.depth - a.depth);
    ctx.lineWidth = 1;
    for (const f of faces) {
      path(f.pts); ctx.closePath();
      ctx.fillStyle = f.colour; ctx.fill();
      ctx.strokeStyle = 'rgba(0,0,0,0.35)'; ctx.stroke();
    }
    ctx.strokeStyle = '#ffffff'; ctx.lineWidth = 2;
    for (const m of w.meshes.values()) if (m) for (const [a, b] of m.walls) {
      path([project(...m.verts[a]), project(...m.verts[b])]); ctx.stroke();
    }
    ctx.setLineDash([6, 4]); ctx.strokeStyle = 'rgba(255,170,60,0.8)'; ctx.lineWidth = 1;
    for (const m of w.meshes.values()) if (m) for (const [x0, z0, x1, z1] of m.tiles) {
      const y = m.minY;
      path([project(x0, y, z0), project(x1, y, z0), project(x1, y, z1), project(x0, y, z1), project(x0, y, z0)]); ctx.stroke();
    }
    // Obstacles and off-mesh links.
    ctx.setLineDash([]);
    for (const o of w.obst) {
      const y = o.y / 1000, pts = [];
      for (let k = 0; k + 1 < o.outline.length; k += 2) pts.push(project(o.outline[k] / 1000, y, o.outline[k + 1] / 1000));
      path(pts); ctx.closePath();
      ctx.fillStyle = 'rgba(220,60,60,0.55)'; ctx.fill(); ctx.strokeStyle = '#ff5a4a'; ctx.lineWidth = 2; ctx.stroke();
    }
    ctx.setLineDash([5, 4]); ctx.strokeStyle = '#e455e4'; ctx.lineWidth = 2;
    for (const l of w.links) {
      const a = project(l.start[0] / 1000, l.start[1] / 1000, l.start[2] / 1000), b = project(l.end[0] / 1000, l.end[1] / 1000, l.end[2] / 1000);
      path([a, b]); ctx.stroke();
      for (const [q, c] of [[a, '#e455e4'], [b, '#4ee6e6']]) if (q) { ctx.fillStyle = c; ctx.beginPath(); ctx.arc(q[0], q[1], 3, 0, 7); ctx.fill(); }
    }
    ctx.setLineDash([]);
    // Trails.
    ctx.strokeStyle = 'rgba(255,255,255,0.25)'; ctx.lineWidth = 1;
    for (const [, t] of S.trails) { path(t.map((p) => project(p[0], p[1], p[2]))); ctx.stroke(); }
    // The selected agent's corners: its path as it steers.
    const sel = S.selected !== null ? w.agents.get(S.selected) : null;
    if (sel && sel.corners.length) {
      const pts = [project(sel.p[0] / 1000, sel.p[1] / 1000, sel.p[2] / 1000)];
      for (let k = 0; k + 2 < sel.corners.length; k += 3) pts.push(project(sel.corners[k] / 1000, sel.corners[k + 1] / 1000, sel.corners[k + 2] / 1000));
      path(pts); ctx.strokeStyle = '#ffd84a'; ctx.lineWidth = 2; ctx.stroke();
      ctx.fillStyle = '#ffffff';
      for (const q of pts.slice(1)) if (q) { ctx.beginPath(); ctx.arc(q[0], q[1], 3, 0, 7); ctx.fill(); }
    }
    // Scene objects (characters, bodies), then agents: discs with a heading line.
    S.drawn = {};
    const scale = (q, r) => (S.view === 'top' ? r * S.cam.scale : (r * H * 1.1) / q[2]);
    for (const o of w.objects.values()) {
      const x = o.p[0] / 1000, y = o.p[1] / 1000, z = o.p[2] / 1000, q = project(x, y, z);
      if (!q) continue;
      ctx.beginPath(); ctx.arc(q[0], q[1], Math.max(3, scale(q, o.radius)), 0, 7);
      ctx.fillStyle = '#5aa0ff'; ctx.fill(); ctx.strokeStyle = '#0b1830'; ctx.lineWidth = 1; ctx.stroke();
      S.drawn[o.name] = { x, y, z, sx: q[0], sy: q[1], object: true };
    }
    for (const a of w.agents.values()) {
      const x = a.p[0] / 1000, y = a.p[1] / 1000, z = a.p[2] / 1000, q = project(x, y, z);
      if (!q) continue;
      const r = Math.max(3, scale(q, a.radius));
      ctx.beginPath(); ctx.arc(q[0], q[1], r, 0, 7);
      ctx.fillStyle = STATE_COLOURS[a.state] || '#cccccc'; ctx.fill();
      ctx.strokeStyle = a.id === S.selected ? '#ffd84a' : '#202020'; ctx.lineWidth = a.id === S.selected ? 3 : 1; ctx.stroke();
      let hx = a.h[0] / 1000, hz = a.h[1] / 1000;
      if (hx === 0 && hz === 0) { const s = Math.hypot(a.v[0], a.v[2]); if (s > 0) { hx = a.v[0] / s; hz = a.v[2] / s; } }
      if (hx !== 0 || hz !== 0) {
        const e = project(x + hx * a.radius * 1.6, y, z + hz * a.radius * 1.6);
        if (e) { path([q, e]); ctx.strokeStyle = '#d02020'; ctx.lineWidth = 2; ctx.stroke(); }
      }
      S.drawn[a.name || String(a.id)] = { x, y, z, sx: q[0], sy: q[1], id: a.id };
    }
    // The path query's answer.
    if (S.query.answer && S.query.answer.points) {
      const is2d = S.query.is2d;
      path(S.query.answer.points.map((p) => (is2d ? project(p[0], 0, p[1]) : project(p[0], p[1], p[2]))));
      ctx.strokeStyle = '#34e0ff'; ctx.lineWidth = 3; ctx.stroke();
    }
    ctx.fillStyle = '#34e0ff';
    for (const p of S.query.points) { const q = project(p[0], p[1], p[2]); if (q) { ctx.beginPath(); ctx.arc(q[0], q[1], 5, 0, 7); ctx.fill(); } }
  }

  // ---- Panels ---------------------------------------------------------------

  function text(s) { return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]); }

  function renderAgent() {
    const w = S.world, a = w && S.selected !== null ? w.agents.get(S.selected) : null;
    if (!a) {
      $('agent-info').innerHTML = '<span class="muted">Click an agent.</span>';
      $('tree').innerHTML = '<span class="muted">No brain selected.</span>'; $('tree').className = 'muted';
      $('blackboard').innerHTML = '';
      return;
    }
    const m = (v) => (v / 1000).toFixed(2), cm = (v) => (v / 100).toFixed(2);
    const corners = [];
    for (let k = 0; k + 2 < a.corners.length; k += 3) corners.push('(' + m(a.corners[k]) + ', ' + m(a.corners[k + 1]) + ', ' + m(a.corners[k + 2]) + ')');
    $('agent-info').innerHTML =
      '<table>' +
      '<tr><td>name</td><td id="agent-name">' + text(a.name || '(crowd agent)') + '</td></tr>' +
      '<tr><td>id</td><td>' + a.id + '</td></tr>' +
      '<tr><td>state</td><td id="agent-state">' + text(a.state) + '</td></tr>' +
      (a.reason && a.reason !== 'none' ? '<tr><td>reason</td><td>' + text(a.reason) + '</td></tr>' : '') +
      '<tr><td>position</td><td>(' + m(a.p[0]) + ', ' + m(a.p[1]) + ', ' + m(a.p[2]) + ') m</td></tr>' +
      '<tr><td>velocity</td><td>(' + cm(a.v[0]) + ', ' + cm(a.v[1]) + ', ' + cm(a.v[2]) + ') m/s</td></tr>' +
      '<tr><td>corners</td><td>' + (corners.join(' → ') || '–') + '</td></tr>' +
      '<tr><td>corridor</td><td>' + a.corridor.length + ' polygons</td></tr></table>';
    const brain = a.name ? w.brains.get(a.name) : null;
    if (!brain) {
      $('tree').innerHTML = '<span class="muted">This agent has no brain.</span>'; $('tree').className = 'muted';
      $('blackboard').innerHTML = '';
      return;
    }
    const nodes = w.trees.get(brain.tree);
    if (!nodes) {
      $('tree').innerHTML = '<span>' + text(brain.tree) + ' (' + text(STATUS_NAMES[brain.n[0]] || '') + ')</span>';
    } else {
      // The tree as nested lists; every node whose last tick was not idle is lit.
      const children = nodes.map(() => []);
      nodes.forEach((n, i) => { if (n.parent !== null && n.parent !== undefined) children[n.parent].push(i); });
      const item = (i) => {
        const n = nodes[i], st = STATUS_NAMES[brain.n[i]] || 'idle';
        return '<li><span class="node status-' + st + (st !== 'idle' ? ' lit' : '') + '" data-index="' + i + '" data-status="' + st +
          '" data-leaf="' + text(n.leaf || '') + '" title="' + text(n.path) + '"><span class="type">' + text(n.type) +
          (n.leaf ? ' ' + text(n.leaf) : '') + '</span>' + text(n.label) + '</span>' +
          (children[i].length ? '<ul>' + children[i].map(item).join('') + '</ul>' : '') + '</li>';
      };
      $('tree').className = 'tree';
      $('tree').innerHTML = '<div class="muted">' + text(brain.tree) + '</div><ul>' + item(0) + '</ul>';
    }
    $('blackboard').innerHTML = '<tr><th>key</th><th>value</th></tr>' +
      Object.keys(brain.bb).sort().map((k) => '<tr><td>' + text(k) + '</td><td>' + text(JSON.stringify(brain.bb[k])) + '</td></tr>').join('');
  }

  function filteredEvents() {
    const kind = $('event-kind').value, agent = $('event-agent').value;
    return S.events.filter((e) => (!kind || e.kind === kind) && (!agent || e.agent === agent));
  }

  function renderEvents() {
    const rows = filteredEvents();
    $('event-table').tBodies[0].innerHTML = rows.map((e) =>
      '<tr data-fi="' + e.fi + '" data-kind="' + text(e.kind) + '"><td>' + e.frame + '</td><td>' + text(e.kind) + '</td><td>' + text(e.agent) +
      '</td><td class="data">' + text(JSON.stringify(e.data)) + '</td></tr>').join('');
    $('event-count').textContent = rows.length + ' of ' + S.events.length;
    syncEvents();
  }

  function syncEvents() {
    let last = null;
    for (const tr of $('event-table').tBodies[0].rows) {
      const fi = Number(tr.dataset.fi);
      tr.classList.toggle('future', fi > S.frame);
      tr.classList.toggle('now', fi === S.frame);
      if (fi <= S.frame) last = tr;
    }
    if (last && S.playing) last.scrollIntoView({ block: 'nearest' });
  }

  function renderQuery() {
    const q = S.query;
    let html;
    if (!S.server) html = 'The query tool needs the server: this page has no <code>nav.path</code> of its own. Run <code>spark view FILE</code> and open the URL it prints.';
    else if (q.error) html = '<span id="query-error">' + text(q.error) + '</span>';
    else if (q.answer) html = '<div>nav.path on <b>' + text(q.mesh) + '</b> at frame ' + S.frames[q.fi].frame + '</div><div>length <b id="query-length">' +
      q.answer.length + '</b> m' + (q.answer.complete ? '' : ' (partial: the goal is not reachable)') + '</div><div>' + q.answer.points.length + ' points</div>';
    else if (q.active) html = q.points.length ? 'Click the goal.' : 'Click the start.';
    else html = 'Press “Path query”, then click two points.';
    $('query-info').innerHTML = html;
    $('query').classList.toggle('on', q.active);
  }

  function seek(i) {
    if (!S.frames.length) return;
    S.frame = Math.max(0, Math.min(S.frames.length - 1, Math.round(i)));
    const r = seekWorld(S.frame);
    S.world = r.world; S.trails = r.trails;
    $('scrub').value = S.frame;
    $('frame-label').textContent = 'frame ' + S.frames[S.frame].frame + ' (' + (S.frame + 1) + ' / ' + S.frames.length + ')';
    draw(); renderAgent(); syncEvents();
  }

  // ---- Input ----------------------------------------------------------------

  function meshAt(x, z) {
    // The polygon under (x, z) and its height, over every mesh.
    for (const [name, m] of S.world.meshes) {
      if (!m) continue;
      for (const poly of m.polys) {
        let inside = false, y = 0;
        for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
          const a = m.verts[poly[i]], b = m.verts[poly[j]];
          if ((a[2] > z) !== (b[2] > z) && x < ((b[0] - a[0]) * (z - a[2])) / (b[2] - a[2]) + a[0]) inside = !inside;
          y += a[1];
        }
        if (inside) return { name, mesh: m, y: y / poly.length };
      }
    }
    return null;
  }

  async function queryPath() {
    const q = S.query, [a, b] = q.points;
    const fmt = (p) => (q.is2d ? [p[0], p[2]] : p).map((v) => v.toFixed(4)).join(',');
    q.sent = { from: fmt(a), to: fmt(b) };
    const url = '/path?rec=' + S.recordingIndex + '&frame=' + q.fi + '&mesh=' + encodeURIComponent(q.mesh) + '&from=' + q.sent.from + '&to=' + q.sent.to;
    try {
      const answer = await (await fetch(url)).json();
      if (answer.ok) q.answer = answer.result;
      else q.error = answer.error.code + ': ' + answer.error.message;
    } catch (e) { q.error = String(e); }
    q.active = false;
    renderQuery(); draw();
  }

  function clickAt(sx, sy) {
    if (S.query.active && S.view === 'top') {
      const [x, z] = unprojectTop(sx, sy), hit = meshAt(x, z);
      if (!hit) { S.query.error = 'that point is off the mesh'; renderQuery(); return; }
      const q = S.query;
      if (q.points.length === 0) { q.mesh = hit.name; q.is2d = hit.mesh.is2d; q.fi = S.frame; q.error = ''; q.answer = null; }
      q.points.push([x, hit.y, z]);
      renderQuery(); draw();
      if (q.points.length === 2) queryPath();
      return;
    }
    let best = null, bestD = Infinity;
    for (const [, d] of Object.entries(S.drawn)) {
      if (d.object) continue;
      const a = S.world.agents.get(d.id), r = Math.max(6, (S.view === 'top' ? a.radius * S.cam.scale : 8) + 4);
      const dist = Math.hypot(d.sx - sx, d.sy - sy);
      if (dist <= r && dist < bestD) { best = d.id; bestD = dist; }
    }
    S.selected = best;
    draw(); renderAgent();
  }

  let drag = null;
  canvas.addEventListener('mousedown', (e) => { drag = { x: e.offsetX, y: e.offsetY, moved: false }; });
  window.addEventListener('mouseup', (e) => {
    if (drag && !drag.moved && e.target === canvas) clickAt(e.offsetX, e.offsetY);
    drag = null;
  });
  canvas.addEventListener('mousemove', (e) => {
    if (!drag) return;
    const dx = e.offsetX - drag.x, dy = e.offsetY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 2) drag.moved = true;
    if (!drag.moved) return;
    if (S.view === 'top') { S.cam.cx -= dx / S.cam.scale; S.cam.cz -= dy / S.cam.scale; }
    else { S.orbit.yaw += dx * 0.01; S.orbit.pitch = Math.max(0.05, Math.min(1.55, S.orbit.pitch + dy * 0.01)); }
    drag.x = e.offsetX; drag.y = e.offsetY;
    draw();
  });
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    const k = Math.exp(-e.deltaY * 0.001);
    if (S.view === 'top') {
      const [x, z] = unprojectTop(e.offsetX, e.offsetY);
      S.cam.scale *= k;
      S.cam.cx = x - (e.offsetX - W / 2) / S.cam.scale; S.cam.cz = z - (e.offsetY - H / 2) / S.cam.scale;
    } else S.orbit.dist = Math.max(1, S.orbit.dist / k);
    draw();
  }, { passive: false });

  function setView(v) {
    S.view = v;
    $('view-top').classList.toggle('on', v === 'top'); $('view-3d').classList.toggle('on', v === '3d');
    draw();
  }
  $('view-top').onclick = () => setView('top');
  $('view-3d').onclick = () => setView('3d');
  $('fit').onclick = () => { fit(); draw(); };
  $('query').onclick = () => {
    if (!S.server) { renderQuery(); return; }
    S.query = { active: !S.query.active, points: [], answer: null, error: '' };
    if (S.query.active) setView('top');
    renderQuery(); draw();
  };
  $('png').onclick = () => {
    const link = document.createElement('a');
    link.download = 'spark-view-frame-' + (S.frames[S.frame] ? S.frames[S.frame].frame : 0) + '.png';
    link.href = canvas.toDataURL('image/png');
    link.click();
  };
  $('scrub').oninput = () => { S.playing = false; $('play').textContent = 'play'; seek(Number($('scrub').value)); };
  $('first').onclick = () => seek(0);
  $('back').onclick = () => seek(S.frame - 1);
  $('forward').onclick = () => seek(S.frame + 1);
  $('speed').onchange = () => { S.speed = Number($('speed').value); };
  $('next-event').onclick = () => { const e = filteredEvents().find((ev) => ev.fi > S.frame); if (e) seek(e.fi); };
  $('event-kind').onchange = renderEvents;
  $('event-agent').onchange = renderEvents;
  $('event-table').onclick = (e) => { const tr = e.target.closest('tr[data-fi]'); if (tr) seek(Number(tr.dataset.fi)); };
  let last = 0, carry = 0;
  function tick(t) {
    if (!S.playing) return;
    const dtMs = (S.header.dt || 1 / 60) * 1000;
    carry += ((t - last) / dtMs) * S.speed; last = t;
    const steps = Math.floor(carry);
    if (steps > 0) { carry -= steps; seek(S.frame + steps); }
    if (S.frame >= S.frames.length - 1) { S.playing = false; $('play').textContent = 'play'; return; }
    requestAnimationFrame(tick);
  }
  $('play').onclick = () => {
    S.playing = !S.playing;
    $('play').textContent = S.playing ? 'pause' : 'play';
    if (S.playing) { if (S.frame >= S.frames.length - 1) seek(0); last = performance.now(); carry = 0; requestAnimationFrame(tick); }
  };
  $('recording').onchange = () => load(Number($('recording').value));

  // ---- Loading --------------------------------------------------------------

  async function load(index) {
    const started = performance.now();
    let bytes, name;
    if (S.server) {
      bytes = new Uint8Array(await (await fetch('/recording/' + index)).arrayBuffer());
      name = $('recording').options[index] ? $('recording').options[index].textContent : '';
    } else {
      const b = atob(window.SPARK_RECORDING.gzip_base64);
      bytes = new Uint8Array(b.length);
      for (let i = 0; i < b.length; ++i) bytes[i] = b.charCodeAt(i);
      name = window.SPARK_RECORDING.name;
    }
    const rec = parseRecording(await inflate(bytes));
    S.recordingIndex = index; S.header = rec.header; S.frames = rec.frames;
    S.selected = null; S.query = { active: false, points: [], answer: null, error: '' };
    buildIndex();
    fit();
    $('scrub').max = Math.max(0, S.frames.length - 1);
    $('source').textContent = (rec.header.source || name) + ' — ' + S.frames.length + ' frames';
    const kinds = [...new Set(S.events.map((e) => e.kind))].sort(), agents = [...new Set(S.events.map((e) => e.agent))].sort();
    $('event-kind').innerHTML = '<option value="">all</option>' + kinds.map((k) => '<option>' + text(k) + '</option>').join('');
    $('event-agent').innerHTML = '<option value="">all</option>' + agents.map((k) => '<option>' + text(k) + '</option>').join('');
    renderEvents(); renderQuery();
    seek(0);
    S.loadMs = performance.now() - started;
  }

  async function start() {
    try {
      if (S.server) {
        const list = await (await fetch('/recordings')).json();
        $('recording').innerHTML = list.map((r) => '<option value="' + r.index + '">' + text(r.name) + '</option>').join('');
      } else {
        $('recording').style.display = 'none';
      }
      await load(0);
    } catch (e) {
      $('message').textContent = 'Cannot show this recording: ' + e.message;
      throw e;
    }
  }

  // The page's state, for tests and for the console.
  window.sparkViewer = {
    ready: start(),
    get frame() { return S.frame; },
    get frameCount() { return S.frames.length; },
    get loadMs() { return S.loadMs; },
    get server() { return S.server; },
    seek,
    events: () => S.events.map((e) => ({ fi: e.fi, frame: e.frame, kind: e.kind, agent: e.agent })),
    drawn: (name) => S.drawn[name] || null,
    agent: (name) => { for (const a of S.world.agents.values()) if (a.name === name) return { p: a.p.slice(), state: a.state }; return null; },
    select: (name) => { const d = S.drawn[name]; if (d) clickAt(d.sx, d.sy); return S.selected; },
    toScreen: (x, z) => { const q = project(x, 0, z); return q ? { x: q[0], y: q[1] } : null; },
    query: () => ({ ...S.query }),
  };
})();
