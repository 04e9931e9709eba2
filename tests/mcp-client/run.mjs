// CTest entry of the MCP client test: skips (exit 77, with the reason) when the
// pinned npm packages are not installed, else runs spark_mcp.test.mjs and spark_mcp_long.test.mjs
// with node's test runner.
//   node tests/mcp-client/run.mjs [SPARK_BIN]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
for (const pkg of ['@modelcontextprotocol/sdk', '@modelcontextprotocol/client', 'ajv', 'ajv-formats']) {
  if (!fs.existsSync(path.join(here, 'node_modules', pkg, 'package.json'))) {
    console.log(`SKIP: the MCP client test needs the npm package ${pkg}: run \`npm ci\` in tests/mcp-client ` +
      '(scripts/dev test does when npm is present)');
    process.exit(77);
  }
}
const env = { ...process.env };
if (process.argv[2]) env.SPARK_BIN = path.resolve(process.argv[2]);
const run = spawnSync(process.execPath, ['--test', '--test-reporter=spec', path.join(here, 'spark_mcp.test.mjs'),
  path.join(here, 'spark_mcp_long.test.mjs')],
  { stdio: 'inherit', env });
process.exit(run.status ?? 1);
