// The viewer in a real browser: Playwright (playwright-core, npm, tests only)
// drives Debian's chromium, headless, with a fresh profile and no network
// features. The guard demo is recorded with `spark test --record`, served with
// `spark view`, and written with `spark view --html`:
//   - the page shows no console error;
//   - at the frame where the guard spots the player, the guard is drawn where
//     the recording puts it (replayed here, independently of the page) and the
//     view matches goldens/viewer/guard-spotted.png within a tolerance;
//   - clicking the guard shows its tree with can_see lit;
//   - the event list filtered to `spotted` has one row;
//   - the query tool draws the path nav.path answers, with its length;
//   - the --html page works from a file:// URL.
// UPDATE_GOLDENS=1 writes the golden instead of comparing it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const spark = process.env.SPARK_BIN || path.join(root, 'build/release/cli/spark');
const golden = path.join(root, 'goldens/viewer/guard-spotted.png');
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// The recording replayed here from its format (docs/recording.md), not by the page:
// each agent's position (mm) after frame `fi`, by name.
function replayAgents(text, fi) {
  const lines = text.split('\n').filter((l) => l);
  const agents = new Map();
  let order = [];
  for (let i = 1; i <= fi + 1; ++i) {
    const f = JSON.parse(lines[i]);
    for (const a of f.new || []) agents.set(a.id, { name: a.name, p: [0, 0, 0], d: [0, 0, 0] });
    for (const id of f.gone || []) agents.delete(id);
    order = [...agents.keys()].sort((a, b) => a - b);
    for (const a of agents.values()) for (let c = 0; c < 3; ++c) a.p[c] += a.d[c];
    let rank = -1;
    for (let k = 0; k + 9 <= (f.a || []).length; k += 9) {
      rank += f.a[k];
      const a = agents.get(order[rank]);
      for (let c = 0; c < 3; ++c) { a.p[c] += f.a[k + 1 + c]; a.d[c] += f.a[k + 1 + c]; }
    }
  }
  return new Map([...agents.values()].map((a) => [a.name, a.p]));
}

function run(args, input) {
  const r = spawnSync(spark, args, { cwd: root, input, encoding: 'utf8' });
  assert.equal(r.status, 0, `spark ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

test('the viewer shows the guard demo', async (t) => {
  const dir = `out/viewer-test-${process.pid}`;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'spark-viewer-'));
  run(['test', 'samples/navigation/guard.test.json', '--record', dir]);
  const recording = path.join(root, dir, 'guard-1.rec.gz');
  const text = zlib.gunzipSync(fs.readFileSync(recording)).toString('utf8');
  const html = path.join(tmp, 'guard.html');
  run(['view', '--html', html, recording]);

  // The server: its first line is the URL.
  const server = spawn(spark, ['view', recording, '--port', '0'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (d) => { out += d; const m = out.match(/^(http:\/\/127\.0\.0\.1:\d+\/)\n/); if (m) resolve(m[1]); });
    server.on('exit', (code) => reject(new Error(`spark view exited with ${code}`)));
  });
  const context = await chromium.launchPersistentContext(path.join(tmp, 'profile'), {
    executablePath: process.env.SPARK_CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1300, height: 1000 },
    deviceScaleFactor: 1,
  });
  const errors = [];
  const open = async (where) => {
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(where);
    await page.evaluate(() => window.sparkViewer.ready);
    return page;
  };
  try {
    const page = await open(url);
    const events = await page.evaluate(() => window.sparkViewer.events());
    const spotted = events.filter((e) => e.kind === 'spotted');
    assert.equal(spotted.length, 1);
    const fi = spotted[0].fi;

    await t.test('at the spotted frame the guard is drawn where the recording puts it', async () => {
      await page.evaluate((i) => window.sparkViewer.seek(i), fi);
      const want = replayAgents(text, fi).get('Guard');
      const drawn = await page.evaluate(() => window.sparkViewer.drawn('Guard'));
      assert.deepEqual([drawn.x, drawn.y, drawn.z], want.map((v) => v / 1000));
      const screen = await page.evaluate(([x, z]) => window.sparkViewer.toScreen(x, z), [drawn.x, drawn.z]);
      assert.ok(Math.abs(screen.x - drawn.sx) < 1e-9 && Math.abs(screen.y - drawn.sy) < 1e-9);
      // The picture against the golden: at most 0.5 % of the pixels differ by more than 48 in a channel.
      const shot = await page.locator('#canvas').screenshot();
      if (process.env.UPDATE_GOLDENS) {
        fs.mkdirSync(path.dirname(golden), { recursive: true });
        fs.writeFileSync(golden, shot);
        return;
      }
      assert.ok(fs.existsSync(golden), `no golden ${golden}: run with UPDATE_GOLDENS=1`);
      const differing = await page.evaluate(async ([a, b]) => {
        const pixels = async (b64) => {
          const img = new Image();
          img.src = 'data:image/png;base64,' + b64;
          await img.decode();
          const c = new OffscreenCanvas(img.width, img.height);
          const g = c.getContext('2d');
          g.drawImage(img, 0, 0);
          return g.getImageData(0, 0, img.width, img.height);
        };
        const x = await pixels(a), y = await pixels(b);
        if (x.width !== y.width || x.height !== y.height) return 1;
        let n = 0;
        for (let i = 0; i < x.data.length; i += 4)
          if (Math.max(Math.abs(x.data[i] - y.data[i]), Math.abs(x.data[i + 1] - y.data[i + 1]), Math.abs(x.data[i + 2] - y.data[i + 2])) > 48) ++n;
        return n / (x.width * x.height);
      }, [shot.toString('base64'), fs.readFileSync(golden).toString('base64')]);
      if (differing > 0.005) fs.writeFileSync(path.join(root, dir, 'guard-spotted.actual.png'), shot);
      assert.ok(differing <= 0.005, `${(differing * 100).toFixed(2)} % of the pixels differ from ${golden}`);
    });

    await t.test('clicking the guard shows its tree with can_see lit', async () => {
      const drawn = await page.evaluate(() => window.sparkViewer.drawn('Guard'));
      const box = await page.locator('#canvas').boundingBox();
      await page.mouse.click(box.x + drawn.sx, box.y + drawn.sy);
      assert.equal(await page.locator('#agent-name').textContent(), 'Guard');
      const seeing = page.locator('.node[data-leaf="can_see"]');
      assert.equal(await seeing.count(), 1);
      assert.match(await seeing.getAttribute('class'), /\blit\b/);
      assert.equal(await seeing.getAttribute('data-status'), 'success');
      // The patrol, which the chase pre-empted, is not lit.
      assert.doesNotMatch(await page.locator('.node[data-leaf="patrol"]').getAttribute('class'), /\blit\b/);
    });

    await t.test('the event list filtered to spotted has one row, on the spotted frame', async () => {
      await page.selectOption('#event-kind', 'spotted');
      const rows = page.locator('#event-table tbody tr');
      assert.equal(await rows.count(), 1);
      assert.equal(Number(await rows.first().getAttribute('data-fi')), fi);
      assert.match(await rows.first().getAttribute('class'), /\bnow\b/);
    });

    await t.test('the query tool draws the path nav.path answers, with its length', async () => {
      await page.click('#query');
      const box = await page.locator('#canvas').boundingBox();
      for (const [x, z] of [[-12, 6], [10, -9.2]]) {
        const s = await page.evaluate(([a, b]) => window.sparkViewer.toScreen(a, b), [x, z]);
        await page.mouse.click(box.x + s.x, box.y + s.y);
      }
      await page.waitForSelector('#query-length, #query-error');
      const shown = Number(await page.locator('#query-length').textContent());
      const sent = await page.evaluate(() => window.sparkViewer.query().sent);
      const point = (s) => s.split(',').map(Number);
      const answers = run(['run', '-'], [
        { command: 'space3d.load', params: { path: 'samples/space3d/ragdoll-wall.space3d.json' } },
        { command: 'nav.bake', params: { name: 'arena', agent_radius: 0.4, agent_height: 1.8 } },
        { command: 'nav.path', params: { mesh: 'arena', from: point(sent.from), to: point(sent.to) } },
      ].map((l) => JSON.stringify(l)).join('\n') + '\n').trim().split('\n').map((l) => JSON.parse(l));
      const want = answers[2].result;
      assert.ok(want.points.length >= 3, 'the path turns a corner');
      assert.equal(shown, want.length);
      const q = await page.evaluate(() => window.sparkViewer.query());
      assert.deepEqual(q.answer.points, want.points);
    });

    await t.test('the --html page works from a file:// URL', async () => {
      const file = await open('file://' + html);
      assert.equal(await file.evaluate(() => window.sparkViewer.server), false);
      assert.equal(await file.evaluate(() => window.sparkViewer.frameCount), text.split('\n').filter((l) => l).length - 1);
      await file.evaluate((i) => window.sparkViewer.seek(i), fi);
      const drawn = await file.evaluate(() => window.sparkViewer.drawn('Guard'));
      assert.deepEqual([drawn.x, drawn.y, drawn.z], replayAgents(text, fi).get('Guard').map((v) => v / 1000));
      await file.click('#query');
      assert.match(await file.locator('#query-info').textContent(), /needs the server/);
      console.log(`load: served page ${(await page.evaluate(() => window.sparkViewer.loadMs)).toFixed(0)} ms, ` +
        `--html page ${(await file.evaluate(() => window.sparkViewer.loadMs)).toFixed(0)} ms`);
    });

    await t.test('no console error', () => assert.deepEqual(errors, []));
  } finally {
    await context.close();
    server.kill('SIGTERM');
    fs.rmSync(tmp, { recursive: true, force: true });
    // The recordings go; a picture that differed from the golden stays for a look.
    for (const f of fs.readdirSync(path.join(root, dir))) if (f.endsWith('.rec.gz')) fs.rmSync(path.join(root, dir, f));
    if (fs.readdirSync(path.join(root, dir)).length === 0) fs.rmdirSync(path.join(root, dir));
  }
});
