// Stands in for `tsc -b --watch` in dev-loop.test.ts: prints a build summary for every line of
// its input file, then waits (as a watcher does) until it is killed.
const { readFileSync } = require('node:fs');
const builds = readFileSync(process.argv[2], 'utf8').trim().split('\n');
let i = 0;
const next = () => {
  if (i < builds.length) {
    console.log(`[12:00:0${i}] Found ${builds[i++]} errors. Watching for file changes.`);
    setTimeout(next, 400);
  }
};
next();
setInterval(() => undefined, 1 << 30);
