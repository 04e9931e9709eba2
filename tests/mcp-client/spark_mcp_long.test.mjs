// End-to-end: long tool calls of `spark mcp` through the official MCP TypeScript SDK
// clients (v1 and v2): progress notifications, cancellation that changes nothing, a ping
// answered during a bake, --tools. Run through run.mjs.
//
//   SPARK_BIN=build/release/cli/spark node --test tests/mcp-client/spark_mcp_long.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';

const here = path.dirname(fileURLToPath(import.meta.url));
const sparkBin = process.env.SPARK_BIN ?? path.resolve(here, '../../build/release/cli/spark');

// About 2 s on an idle core: an 11-million-cell 2D bake (its three stages are the safe points).
const BIG = {
  name: 'big', source: 'polygons', agent_radius: 0.5, cell_size: 0.3,
  bounds: { min: [0, 0], max: [1000, 1000] },
  solid_rects: [{ min: [5, 0], max: [6, 900] }, { min: [100, 50], max: [110, 1000] }],
};
const SMALL = { name: 'small', source: 'polygons', agent_radius: 0, cell_size: 1, bounds: { min: [0, 0], max: [20, 20] } };

let project;
const open = []; // every client, closed at the end even when a test failed (else its server keeps node alive)
before(() => {
  assert.ok(fs.existsSync(sparkBin), `no spark binary at ${sparkBin} (set SPARK_BIN)`);
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'spark-mcp-long-'));
});
after(async () => {
  await Promise.allSettled(open.map((c) => c.close()));
  fs.rmSync(project, { recursive: true, force: true });
});

// What the SDK's onerror may report without the server being at fault: v1 dispatches a
// notification in a microtask but a response at once, so a progress notification that
// arrives in the same read as its call's response is handled after it, for a token the
// SDK has just dropped. The server sent it before the response, while the call ran.
const sdkReorder = /Received a progress notification for an unknown token/;

// A v1 client on a fresh server; `errors` collects what the SDK found malformed (an
// answer to a cancelled request would land here as "unknown message ID").
async function connect(extraArgs = []) {
  const transport = new StdioClientTransport({ command: sparkBin, args: ['mcp', '--project', project, ...extraArgs], stderr: 'pipe' });
  const client = new Client({ name: 'spark-long', version: '1.0.0' }, { capabilities: {} });
  const errors = [];
  client.onerror = (e) => { if (!sdkReorder.test(String(e))) errors.push(String(e)); };
  await client.connect(transport);
  open.push(client);
  return { client, errors };
}

async function meshes(client) {
  const list = await client.callTool({ name: 'nav_list', arguments: {} });
  assert.equal(list.isError, false);
  return list.structuredContent.meshes;
}

test('a long bake with a progressToken sends progress notifications before its result', async () => {
  const { client, errors } = await connect();
  const progress = [];
  const result = await client.callTool({ name: 'nav_bake', arguments: BIG }, undefined,
    { onprogress: (p) => progress.push(p) });
  assert.equal(result.isError, false, JSON.stringify(result.content));
  assert.ok(progress.length >= 1, 'no progress notification');
  for (let i = 1; i < progress.length; ++i) assert.ok(progress[i].progress > progress[i - 1].progress, 'progress must grow');
  assert.match(progress[0].message, /bake/);
  assert.deepEqual(errors, []);
  await client.close();
});

test('a ping sent during a bake is answered in < 100 ms', async () => {
  const { client, errors } = await connect();
  let started;
  const running = new Promise((resolve) => { started = resolve; });
  let done = false;
  const bake = client.callTool({ name: 'nav_bake', arguments: BIG }, undefined, { onprogress: () => started() })
    .finally(() => { done = true; });
  await running; // the bake has reached its first safe point: it is running
  const t0 = performance.now();
  await client.ping();
  const ms = performance.now() - t0;
  assert.equal(done, false, 'the bake ended before the ping: nothing was measured');
  assert.ok(ms < 100, `ping took ${ms.toFixed(1)} ms during the bake`);
  assert.equal((await bake).isError, false);
  assert.deepEqual(errors, []);
  await client.close();
});

test('a cancelled bake stops, changes nothing, and the session goes on', async () => {
  const { client, errors } = await connect();
  assert.equal((await client.callTool({ name: 'nav_bake', arguments: SMALL })).isError, false);
  const before = await meshes(client);
  const abort = new AbortController();
  const t0 = performance.now();
  const bake = client.callTool({ name: 'nav_bake', arguments: BIG }, undefined,
    { signal: abort.signal, onprogress: () => abort.abort('enough') });
  await assert.rejects(bake);
  // The next call waits for the cancelled one to stop (calls run in order): the state is as before.
  assert.deepEqual(await meshes(client), before);
  const stoppedAfter = performance.now() - t0;
  const info = await client.callTool({ name: 'nav_info', arguments: { mesh: 'small' } });
  assert.equal(info.isError, false);
  // No answer came for the cancelled request (the SDK would report an unknown message id).
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(errors, []);
  await client.close();
  console.log(`# cancelled bake: stopped and the next call answered ${stoppedAfter.toFixed(0)} ms after it started`);
});

test('--tools narrows the tools to the prefixes; the others cannot be called', async () => {
  const { client } = await connect(['--tools', 'nav.,system_']);
  const { tools } = await client.listTools();
  assert.ok(tools.length >= 20, `${tools.length} tools`);
  for (const t of tools) assert.match(t.name, /^(nav|system)_/);
  assert.ok(tools.some((t) => t.name === 'nav_bake'));
  await assert.rejects(client.callTool({ name: 'ai_step', arguments: {} }), /unknown tool/);
  await client.close();
});

test('the SDK v2 client negotiates the newest revision it speaks and gets the instructions', async () => {
  const transport = new StdioClientTransportV2({ command: sparkBin, args: ['mcp', '--project', project] });
  const client = new ClientV2({ name: 'spark-v2', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  open.push(client);
  assert.equal(client.getNegotiatedProtocolVersion(), '2025-11-25');
  assert.ok(client.getInstructions()?.length > 0);
  const { tools } = await client.listTools();
  for (const t of tools) {
    for (const k of ['oneOf', 'anyOf', 'allOf']) assert.ok(!(k in t.inputSchema), `${t.name}: top-level ${k}`);
  }
  const version = await client.callTool({ name: 'system_version', arguments: {} });
  assert.equal(version.isError, false);
  assert.equal(version.structuredContent.name, 'spark');
  await client.close();
});
