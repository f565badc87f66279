// Stands in for the site in dev-loop.test.ts: records its pid on start and its end on SIGTERM.
const { appendFileSync } = require('node:fs');
const log = process.argv[2];
appendFileSync(log, `start ${process.pid}\n`);
process.on('SIGTERM', () => {
  appendFileSync(log, `stop ${process.pid}\n`);
  process.exit(0);
});
setInterval(() => undefined, 1 << 30);
