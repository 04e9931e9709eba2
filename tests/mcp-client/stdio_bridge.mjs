// A Streamable HTTP front for `spark mcp` (stdio), so tools that speak only HTTP (the MCP
// conformance kit) can drive it. One spark process, one session; binds 127.0.0.1 only.
//
//   node tests/mcp-client/stdio_bridge.mjs SPARK_BIN PORT [spark mcp options...]
//   npx @modelcontextprotocol/conformance@0.1.10 server --url http://127.0.0.1:PORT/mcp --scenario tools-list
//
// POST /mcp takes one JSON-RPC message: a request is answered as an SSE stream carrying the
// progress notifications of its progressToken and then its response; a notification or a
// response is written through and answered 202. GET (a server-initiated stream) is 405.
import { spawn } from 'node:child_process';
import http from 'node:http';
import readline from 'node:readline';

const [sparkBin, portText, ...sparkArgs] = process.argv.slice(2);
if (!sparkBin || !portText) {
  console.error('usage: node stdio_bridge.mjs SPARK_BIN PORT [spark mcp options...]');
  process.exit(2);
}
const spark = spawn(sparkBin, ['mcp', ...sparkArgs], { stdio: ['pipe', 'pipe', 'inherit'] });
spark.on('exit', (code) => { console.error(`spark mcp exited (${code})`); process.exit(code ?? 1); });

const waiting = new Map(); // JSON.stringify(id) -> {res, token}
readline.createInterface({ input: spark.stdout }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.method === 'notifications/progress') {
    for (const w of waiting.values())
      if (w.token !== undefined && w.token === message.params?.progressToken) w.res.write(`event: message\ndata: ${line}\n\n`);
    return;
  }
  const key = JSON.stringify(message.id ?? null);
  const w = waiting.get(key);
  if (!w) return;
  waiting.delete(key);
  w.res.end(`event: message\ndata: ${line}\n\n`);
});

http.createServer((req, res) => {
  if (req.url !== '/mcp') { res.writeHead(404).end(); return; }
  if (req.method !== 'POST') { res.writeHead(405, { Allow: 'POST' }).end(); return; }
  let body = '';
  req.on('data', (d) => { body += d; });
  req.on('end', () => {
    let message;
    try { message = JSON.parse(body); } catch {
      res.writeHead(400, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } }));
      return;
    }
    if (Array.isArray(message) || message.method === undefined || message.id === undefined) {
      spark.stdin.write(JSON.stringify(message) + '\n');
      res.writeHead(202).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    waiting.set(JSON.stringify(message.id), { res, token: message.params?._meta?.progressToken });
    spark.stdin.write(JSON.stringify(message) + '\n');
  });
}).listen(Number(portText), '127.0.0.1', () => console.error(`bridge: http://127.0.0.1:${portText}/mcp -> ${sparkBin} mcp`));
