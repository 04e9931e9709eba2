// End-to-end: `spark mcp` driven by the official MCP TypeScript SDK client over stdio,
// in one connection. Run through run.mjs (which skips when the packages are not installed).
//
//   SPARK_BIN=build/release/cli/spark node --test tests/mcp-client/spark_mcp.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule.default ?? addFormatsModule;
const here = path.dirname(fileURLToPath(import.meta.url));
const sparkBin = process.env.SPARK_BIN ?? path.resolve(here, '../../build/release/cli/spark');
const kVersion = '2025-06-18';

const BAKE = {
  name: 'maze',
  source: 'polygons',
  agent_radius: 0,
  cell_size: 1,
  bounds: { min: [0, 0], max: [20, 20] },
  solid_rects: [{ min: [5, 0], max: [6, 15] }, { min: [10, 5], max: [11, 20] }],
};

// The official client always offers its latest version; this transport asks for
// `version` instead (what a client of that version sends) and records every
// message both ways, so the test can check what was negotiated.
class VersionedTransport {
  constructor(inner, version) {
    this.inner = inner;
    this.version = version;
    this.received = [];
    this.errors = [];
  }
  async start() {
    this.inner.onmessage = (m) => {
      this.received.push(m);
      this.onmessage?.(m);
    };
    this.inner.onerror = (e) => {
      this.errors.push(e);
      this.onerror?.(e);
    };
    this.inner.onclose = () => this.onclose?.();
    return this.inner.start();
  }
  async send(message, options) {
    if (message.method === 'initialize') message = { ...message, params: { ...message.params, protocolVersion: this.version } };
    return this.inner.send(message, options);
  }
  async close() { return this.inner.close(); }
  get stderr() { return this.inner.stderr; }
}

let project;
let client;
let transport;
let tools;

before(async () => {
  assert.ok(fs.existsSync(sparkBin), `no spark binary at ${sparkBin} (set SPARK_BIN)`);
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'spark-mcp-client-'));
  fs.mkdirSync(path.join(project, 'samples'));
  fs.writeFileSync(path.join(project, 'samples', 'note.json'), '{"sample": true}\n');
  transport = new VersionedTransport(
    new StdioClientTransport({ command: sparkBin, args: ['mcp', '--project', project], stderr: 'pipe' }),
    kVersion,
  );
  client = new Client({ name: 'spark-e2e', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  tools = (await client.listTools()).tools;
});

after(async () => {
  await client?.close();
  if (project) fs.rmSync(project, { recursive: true, force: true });
});

test('initialize negotiates 2025-06-18 and names the server', () => {
  const init = transport.received.find((m) => m.id !== undefined && m.result?.protocolVersion);
  assert.equal(init.result.protocolVersion, kVersion);
  assert.equal(client.getServerVersion().name, 'spark');
  assert.ok(client.getServerCapabilities().tools);
});

test('tools/list: every tool has a title, annotations, and object input and output schemas', () => {
  assert.ok(tools.length >= 40, `only ${tools.length} tools`);
  const names = new Set(tools.map((t) => t.name));
  for (const name of ['nav_bake', 'nav_path', 'nav_debug_capture', 'system_version', 'ai_scenario_run']) assert.ok(names.has(name), name);
  for (const t of tools) {
    assert.match(t.name, /^[a-z0-9_]+$/);
    assert.equal(t.inputSchema.type, 'object', t.name);
    assert.equal(t.outputSchema?.type, 'object', t.name);
    assert.equal(typeof t.title, 'string', t.name);
    assert.equal(typeof t.annotations?.readOnlyHint, 'boolean', t.name);
    assert.equal(typeof t.annotations?.destructiveHint, 'boolean', t.name);
    assert.equal(typeof t.annotations?.idempotentHint, 'boolean', t.name);
  }
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  assert.equal(byName.nav_path.annotations.readOnlyHint, true);
  assert.equal(byName.space3d_new.annotations.readOnlyHint, false);
  assert.equal(byName.space3d_new.annotations.destructiveHint, true);
  assert.equal(byName.nav_remove.annotations.destructiveHint, true);
  assert.equal(byName.nav_agent_add.annotations.idempotentHint, false);
});

test('every input and output schema compiles under ajv strict mode', () => {
  const problems = [];
  for (const t of tools) {
    for (const [kind, schema] of [['inputSchema', t.inputSchema], ['outputSchema', t.outputSchema]]) {
      const ajv = new Ajv({ strict: true, allErrors: true });
      addFormats(ajv);
      try {
        ajv.compile(schema);
      } catch (e) {
        problems.push(`${t.name} ${kind}: ${e.message}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

// Calls a tool through the SDK (which itself validates structuredContent against the
// tool's outputSchema and throws when it does not match), then checks it again with
// the SDK's own validator.
const validator = new AjvJsonSchemaValidator();
async function call(name, args) {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.isError, false, `${name}: ${JSON.stringify(result.content)}`);
  assert.ok(result.structuredContent, `${name} has no structuredContent`);
  const tool = tools.find((t) => t.name === name);
  const check = validator.getValidator(tool.outputSchema)(result.structuredContent);
  assert.ok(check.valid, `${name}: ${check.errorMessage}`);
  assert.deepEqual(JSON.parse(result.content[0].text), result.structuredContent);
  return result;
}

test('bake -> path -> capture in one connection; the capture is a PNG the agent can see', async () => {
  await call('system_version', {});
  const bake = await call('nav_bake', BAKE);
  assert.equal(bake.structuredContent.name, 'maze');
  const route = await call('nav_path', { from: [2, 2], to: [8, 2] });
  assert.equal(route.structuredContent.complete, true);
  assert.ok(route.structuredContent.points.length >= 3);
  const capture = await call('nav_debug_capture', {
    path: 'captures/maze.png', width: 128, height: 128, path_from: [2, 2], path_to: [8, 2],
  });
  const image = capture.content.find((c) => c.type === 'image');
  assert.ok(image, 'no image content');
  assert.equal(image.mimeType, 'image/png');
  const png = Buffer.from(image.data, 'base64');
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(png.readUInt32BE(16), 128, 'IHDR width');
  assert.equal(png.readUInt32BE(20), 128, 'IHDR height');
  assert.deepEqual(png, fs.readFileSync(path.join(project, 'captures/maze.png')));
  // The state lives on: the mesh baked three calls ago is still there.
  const info = await call('nav_info', {});
  assert.equal(info.structuredContent.mesh, 'maze');
});

test('bad calls answer isError with an E_ code and change nothing', async () => {
  for (const [name, args, code] of [
    ['nav_path', { from: 'here' }, 'E_INVALID_PARAMS'],
    ['nav_path', { mesh: 'nope', from: [0, 0], to: [1, 1] }, undefined],
    ['nav_debug_capture', { path: '../outside.png' }, 'E_PATH'],
    ['system_schema', { command: 'nav.nope' }, 'E_UNKNOWN_COMMAND'],
  ]) {
    const result = await client.callTool({ name, arguments: args });
    assert.equal(result.isError, true, name);
    assert.equal(result.structuredContent, undefined);
    const envelope = JSON.parse(result.content[0].text);
    assert.equal(envelope.ok, false);
    assert.match(envelope.error.code, /^E_[A-Z_]+$/);
    if (code) assert.equal(envelope.error.code, code);
  }
  await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), /unknown tool/);
  assert.equal((await call('nav_info', {})).structuredContent.mesh, 'maze');
});

test("resources: the project's samples are listed and readable, nothing outside the project", async () => {
  const { resources } = await client.listResources();
  assert.ok(resources.some((r) => r.uri === 'spark://project/samples/note.json' && r.mimeType === 'application/json'));
  const read = await client.readResource({ uri: 'spark://project/samples/note.json' });
  assert.equal(read.contents[0].text, '{"sample": true}\n');
  await assert.rejects(client.readResource({ uri: 'spark://project/../etc/passwd.json' }));
});

test('the SDK saw no malformed message', () => {
  assert.deepEqual(transport.errors.map(String), []);
});

test('every stdout line of a raw session is one JSON-RPC message', () => {
  const lines = [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: kVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'nav_bake', arguments: BAKE } },
    { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'nav_debug_capture', arguments: { path: 'raw.png', width: 32, height: 32 } } },
    { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'nav_path', arguments: { from: 1 } } },
  ].map((m) => JSON.stringify(m)).join('\n') + '\n{oops\n';
  const run = spawnSync(sparkBin, ['mcp', '--project', project], { input: lines, encoding: 'utf8', timeout: 60000 });
  assert.equal(run.status, 0, run.stderr);
  const out = run.stdout.split('\n').filter((l) => l !== '');
  assert.equal(out.length, 6);
  const answers = out.map((l) => JSON.parse(l));
  for (const a of answers) assert.equal(a.jsonrpc, '2.0');
  // Tool calls answer in the order they came; the rest is answered as soon as it is read.
  const ids = answers.map((a) => a.id);
  assert.deepEqual([...ids].sort(), [1, 2, 3, 4, 5, null].sort());
  assert.deepEqual(ids.filter((id) => id >= 3), [3, 4, 5]);
  const byId = new Map(answers.map((a) => [a.id, a]));
  assert.equal(byId.get(1).result.protocolVersion, kVersion);
  assert.equal(byId.get(4).result.content[1].type, 'image');
  assert.equal(byId.get(5).result.isError, true);
  assert.equal(byId.get(null).error.code, -32700);
});
