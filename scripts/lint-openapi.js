#!/usr/bin/env node
/**
 * `npm run lint:openapi`: writes the OpenAPI document of every example app (each examples/NAME/app.ts,
 * built into examples/dist by `npm run build`) to a temporary folder and lints them all with
 * Redocly CLI (recommended ruleset) and Spectral (spectral:oas). Any error or warning fails.
 *
 * Both linters run offline: Redocly's telemetry and update check are turned off, and Spectral
 * reads its built-in ruleset from node_modules.
 */
'use strict';
require('reflect-metadata');
const { spawnSync } = require('node:child_process');
const { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');

const root = resolve(__dirname, '..');
const dist = join(root, 'examples', 'dist');
const keep = process.argv.includes('--keep');

async function main() {
  if (!existsSync(dist)) throw new Error('examples/dist is missing: run `npm run build` first.');
  const { buildOpenAPIDocument } = require(join(root, 'packages', 'core'));
  const dir = mkdtempSync(join(tmpdir(), 'tern-openapi-'));
  const files = [];
  const roleRequirements = [];
  for (const name of readdirSync(dist).sort()) {
    const appFile = join(dist, name, 'app.js');
    if (!existsSync(appFile)) continue;
    const { buildApp } = require(appFile);
    if (typeof buildApp !== 'function') continue;
    const built = buildApp();
    const app = built && built.app ? built.app : built;
    await app.ready();
    const file = join(dir, `${name}.json`);
    const document = buildOpenAPIDocument(app.getAllRoutes(), app.openapiConfig);
    writeFileSync(file, JSON.stringify(document, null, 2));
    files.push(file);
    roleRequirements.push(...rolesIn(document).map((pointer) => `${name}.json#${pointer}`));
  }
  if (files.length === 0) throw new Error('No example app found in examples/dist.');
  console.log(`Linting ${files.length} documents in ${dir}`);

  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  const redocly = run('redocly', [require.resolve('@redocly/cli/bin/cli.js'), 'lint', '--extends', 'recommended', '--max-problems', '1000', ...files], env);
  const spectralRuleset = join(dir, '.spectral.json');
  // Spectral's oas3-operation-security-defined predates OpenAPI 3.1's roles: it reads every list
  // in a requirement as OAuth2 scopes, so `{ bearerAuth: ['admin'] }` (valid 3.1, and what Tern
  // enforces) would be a warning. It stays on everywhere else; the requirements listing roles are
  // exempted one by one (Tern's ready() already refuses unknown schemes and scopes there).
  const overrides = roleRequirements.length > 0 ? [{ files: roleRequirements, rules: { 'oas3-operation-security-defined': 'off' } }] : [];
  writeFileSync(spectralRuleset, JSON.stringify({ extends: [['spectral:oas', 'recommended']], overrides }));
  const spectral = run('spectral', [
    require.resolve('@stoplight/spectral-cli/dist/index.js'), 'lint', '--ruleset', spectralRuleset, '--fail-severity', 'hint', '--display-only-failures', ...files,
  ], env);
  if (!keep) rmSync(dir, { recursive: true, force: true });
  if (!redocly || !spectral) process.exitCode = 1;
  else console.log('lint:openapi: every example document passes Redocly (recommended) and Spectral (spectral:oas).');
}

/** JSON pointers of the operations' security requirements that list roles (a non-OAuth2 scheme with a non-empty list). */
function rolesIn(document) {
  const schemes = (document.components && document.components.securitySchemes) || {};
  const escape = (segment) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
  const pointers = [];
  for (const [path, item] of Object.entries(document.paths || {})) {
    for (const [method, operation] of Object.entries(item)) {
      (operation.security || []).forEach((requirement, index) => {
        const roles = Object.entries(requirement).some(([name, list]) => list.length > 0 && schemes[name] && schemes[name].type !== 'oauth2');
        if (roles) pointers.push(`/paths/${escape(path)}/${method}/security/${index}`);
      });
    }
  }
  return pointers;
}

/** Runs a linter, shows its report, and passes only on a zero exit with no warning in the report. */
function run(label, args, env) {
  console.log(`\n== ${label}`);
  const result = spawnSync(process.execPath, args, { env, cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  const output = `${result.stdout}${result.stderr}`;
  process.stdout.write(output);
  // Redocly exits 0 when it found only warnings ("You have 3 warnings."): they count here.
  const warned = /You have \d+ warnings?\b/.test(output);
  return result.status === 0 && !warned;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
