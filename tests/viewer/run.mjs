// CTest entry of the viewer's browser test: skips (exit 77, with the reason)
// when chromium or the pinned npm package is missing, else runs
// viewer.test.mjs with node's test runner.
//   node tests/viewer/run.mjs SPARK_BIN
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const chromium = process.env.SPARK_CHROMIUM || '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
  console.log(`SKIP: the viewer's browser test needs Debian's chromium at ${chromium} (scripts/setup installs it)`);
  process.exit(77);
}
if (!fs.existsSync(path.join(here, 'node_modules', 'playwright-core', 'package.json'))) {
  console.log('SKIP: the viewer\'s browser test needs the npm package playwright-core: run `npm ci` in tests/viewer ' +
    '(scripts/dev test does when npm is present)');
  process.exit(77);
}
const env = { ...process.env, SPARK_CHROMIUM: chromium };
if (process.argv[2]) env.SPARK_BIN = path.resolve(process.argv[2]);
const run = spawnSync(process.execPath, ['--test', '--test-reporter=spec', path.join(here, 'viewer.test.mjs')],
  { stdio: 'inherit', env });
process.exit(run.status ?? 1);
