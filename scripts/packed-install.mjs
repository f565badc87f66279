#!/usr/bin/env node
/**
 * Installs Tern the way a user does and checks it works there: `npm run build`, `npm pack` the
 * packages, then, in a fresh folder outside the repository (os.tmpdir()):
 *
 * 1. **The first page, as written.** docs/getting-started.md is read here: its install commands
 *    run as they are (unpinned: today's TypeScript, jest, @swc/jest; only `@tern/core` becomes the
 *    tarball), every file it shows is written, and its commands run: `npx tsc`, the app (asked
 *    over HTTP what the page says it answers) and `npx jest`. The installed package ships the
 *    licences of the router bundled into it, and loading it loads no find-my-way package;
 *    `jwtVerifier` loads jose (ESM-only) from it, compiled and from the compile cache.
 * 2. **@tern/file-router on its own**: its tarball installed by itself next to the core (a peer
 *    dependency), with no second copy of the core.
 * 3. **ESM and CommonJS**: every public name of every entry point imported by name from a
 *    `"type": "module"` folder, and required from CommonJS, as the same objects; a TypeScript
 *    `module: nodenext` ESM app compiled with today's TypeScript runs.
 * 4. **TypeScript 5.x**: a controller app compiled with NestJS's default tsconfig under several
 *    settings by the repository's TypeScript (5.9), started and asked over HTTP.
 * 5. A second copy of class-transformer under @tern/core must stop startup
 *    (TERN_DUPLICATE_LIBRARY) instead of accepting unchecked nested data.
 * 6. **The glue pages, as written**: docs/database.md's app (@tern/postgres on PGlite),
 *    docs/client.md's openapi.json script and `tern-client-types`, and docs/observability.md's
 *    telemetry (@tern/otel), with today's @types/node, compiled by today's TypeScript (7) and by
 *    5.x, then run: the database answers, the client's calls type-check (a wrong one is refused)
 *    and SIGTERM ends the traced app.
 *
 * Run by .ci/run and by `npm run test:packed` (not part of `npm test`: it builds and installs).
 * Needs the npm registry for the unpinned installs; ~1-2 min. Exits non-zero on the first failure.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const started = Date.now();
const keep = process.argv.includes('--keep');
// `--reuse <folder>` (with --keep, for working on this script): a folder a kept run left, whose
// project is already installed; the build, the pack and the page's install are skipped.
const reuse = process.argv.includes('--reuse') ? process.argv[process.argv.indexOf('--reuse') + 1] : undefined;

function log(message) {
  console.log(`[packed] ${((Date.now() - started) / 1000).toFixed(1)}s ${message}`);
}

function run(command, args, cwd) {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
  }
}

/** `run`, without blocking: independent compilations overlap. */
function runAsync(command, args, cwd) {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout}${stderr}`));
      else resolve(stdout);
    });
  });
}

function check(condition, message, detail) {
  if (!condition) throw new Error(`${message}${detail === undefined ? '' : `\n  got: ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`}`);
}

const versionOf = (name) => JSON.parse(fs.readFileSync(path.join(repo, 'node_modules', name, 'package.json'), 'utf8')).version;

// ---------------------------------------------------------------------------------------------
// A controller app that uses every entry point, compiled under TypeScript 5.x settings (compat/).
// ---------------------------------------------------------------------------------------------

const APP = {
  'src/dto.ts': `
import { Type } from 'class-transformer';
import { IsInt, IsObject, IsOptional, IsString, Length, Min, ValidateNested } from 'class-validator';

export class Address {
  @IsString() @Length(1, 40) city: string;
  @IsOptional() @IsString() street?: string;
}

export class CreateUserDto {
  @IsString() @Length(1, 40) name: string;
  @IsInt() @Min(0) age: number;
  @IsObject() @ValidateNested() @Type(() => Address) address: Address;
}

export class UpdateUserDto {
  @IsOptional() @IsString() name?: string;
  @IsOptional() @IsInt() @Min(0) age?: number;
}
`,
  'src/users.controller.ts': `
import { Body, Controller, Get, Param, Patch, Post } from '@tern/core';
import { Address, CreateUserDto, UpdateUserDto } from './dto';

@Controller('/users', { tags: ['users'] })
export class UsersController {
  private readonly users = new Map<number, { id: number; name: string; age: number }>([[1, { id: 1, name: 'Ada', age: 36 }]]);

  // The answer reports how the body was built (class instances), fields the DTO does not declare:
  // response filtering would drop them, so this probe route opts out.
  @Post('/', { statusCode: 201, responses: { 201: CreateUserDto }, responseFiltering: false })
  async create(@Body() dto: CreateUserDto) {
    return {
      name: dto.name,
      isDto: dto instanceof CreateUserDto,
      addressIsAddress: dto.address instanceof Address,
      address: dto.address,
    };
  }

  @Patch('/{id:int}')
  async update(@Param('id') id: number, @Body() dto: UpdateUserDto) {
    const user = this.users.get(id);
    return user ? Object.assign(user, dto) : { missing: id };
  }

  @Get('/{id:int}')
  async get(@Param('id') id: number) {
    return this.users.get(id) ?? { missing: id };
  }
}
`,
  'src/app.ts': `
import 'reflect-metadata';
import { TernApp } from '@tern/core';
import { Router } from '@tern/core/routing';
import { Convertor } from '@tern/core/converters';
import { HTTPBearer } from '@tern/core/openapi';
import { URLPath } from '@tern/core/structs';
import { UsersController } from './users.controller';

export function buildApp(): TernApp {
  const app = new TernApp({ openapi: { title: 'Packed', version: '1.0.0' } });
  app.openapiConfig.addSecurityScheme('bearer', new HTTPBearer({ bearerFormat: 'JWT' }));
  const health = new Router({ prefix: '/health' });
  health.get('/', async () => ({
    ok: true,
    subpaths: typeof Convertor === 'function' && String(new URLPath('/x').addQueryParams({ a: 1 })) === '/x?a=1',
  }));
  app.mountRouter(health);
  app.registerControllers([UsersController]);
  return app;
}
`,
  'src/main.ts': `
import { buildApp } from './app';

buildApp()
  .listen({ port: 0 })
  .then((address) => console.log('LISTENING ' + address))
  .catch((error: { code?: string; message: string }) => {
    console.error('STARTUP FAILED ' + (error.code ?? '') + '\\n' + error.message);
    process.exit(3);
  });
`,
};

/** NestJS's default tsconfig (\`nest new\`), with the variations under test. */
function tsconfig(overrides) {
  return {
    compilerOptions: {
      module: 'commonjs',
      declaration: true,
      removeComments: true,
      emitDecoratorMetadata: true,
      experimentalDecorators: true,
      allowSyntheticDefaultImports: true,
      target: 'ES2021',
      sourceMap: true,
      outDir: './dist',
      rootDir: './src',
      baseUrl: './',
      incremental: false,
      skipLibCheck: true,
      strictNullChecks: false,
      noImplicitAny: false,
      strictBindCallApply: false,
      forceConsistentCasingInFileNames: false,
      noFallthroughCasesInSwitch: false,
      types: ['node'],
      ...overrides,
    },
    include: ['src'],
  };
}

const VARIANTS = [
  { name: 'NestJS default (commonjs, ES2021, node10 resolution)', options: { moduleResolution: 'node10' } },
  { name: 'ES2022 class fields (commonjs, node10 resolution)', options: { target: 'ES2022', moduleResolution: 'node10' } },
  { name: 'node16 module resolution (ES2022)', options: { target: 'ES2022', module: 'node16', moduleResolution: 'node16' } },
];

// ---------------------------------------------------------------------------------------------

/** Starts `node <main>` in `cwd` and waits until its output matches `listening` (its first group is the address). */
async function startApp(cwd, main, listening = /LISTENING (\S+)/, env = {}) {
  const child = spawn(process.execPath, [main], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const result = await new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ kind: 'timeout' }), 15_000);
    child.stdout.on('data', () => {
      const m = listening.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve({ kind: 'listening', address: m[1] });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ kind: 'exited', code });
    });
  });
  return { child, result, output: () => output };
}

async function request(address, method, url, body) {
  const res = await fetch(address + url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json };
}

async function checkRunningApp(project, variant, dist) {
  const { child, result, output } = await startApp(project, `${dist}/main.js`);
  try {
    check(result.kind === 'listening', `${variant}: the app did not start`, output());
    const { address } = result;

    const invalid = await request(address, 'POST', '/users', { name: 'Ada', age: 36, address: { city: 42 } });
    check(invalid.status === 422, `${variant}: invalid nested data must be a 422`, invalid);
    check(
      invalid.json.errors?.some((e) => e.path === 'address.city'),
      `${variant}: the 422 must name address.city`,
      invalid.json,
    );
    const missing = await request(address, 'POST', '/users', { name: 'Ada', age: 36, address: 'nowhere' });
    check(missing.status === 422, `${variant}: a nested value that is not an object must be a 422`, missing);

    const valid = await request(address, 'POST', '/users', { name: 'Ada', age: 36, address: { city: 'London' }, admin: true });
    check(valid.status === 201, `${variant}: valid data must be a 201`, valid);
    check(
      valid.json.isDto === true && valid.json.addressIsAddress === true && valid.json.address?.city === 'London',
      `${variant}: the handler must get a CreateUserDto holding an Address instance`,
      valid.json,
    );

    const patched = await request(address, 'PATCH', '/users/1', { age: 37 });
    check(
      patched.status === 200 && patched.json.name === 'Ada' && patched.json.age === 37,
      `${variant}: Object.assign(entity, dto) must keep the fields the client did not send`,
      patched,
    );

    const doc = await request(address, 'GET', '/openapi.json');
    check(doc.status === 200, `${variant}: /openapi.json must be served`, doc.status);
    const schemas = doc.json.components?.schemas ?? {};
    check(
      schemas.CreateUserDto?.properties?.address !== undefined && schemas.Address?.properties?.city?.type === 'string',
      `${variant}: the document must describe CreateUserDto and its nested Address`,
      schemas,
    );
    check(doc.json.paths?.['/users']?.post !== undefined, `${variant}: the document must list POST /users`, Object.keys(doc.json.paths ?? {}));

    const health = await request(address, 'GET', '/health');
    check(health.status === 200 && health.json.ok === true && health.json.subpaths === true, `${variant}: the subpath imports must work`, health);
  } finally {
    child.kill();
  }
}

// ---------------------------------------------------------------------------------------------
// docs/getting-started.md, read as the test's script.
// ---------------------------------------------------------------------------------------------

const PAGE = fs.readFileSync(path.join(repo, 'docs', 'getting-started.md'), 'utf8');

/**
 * Every file the first project of the page shows: a line "`src/dto.ts`:", a blank line, then its
 * code block. The ES-module section's files are another project's (checkModuleFormats runs them).
 */
function pageFiles() {
  const files = {};
  const esmSection = PAGE.indexOf('\n## An ES-module project');
  check(esmSection > 0, 'docs/getting-started.md must have its "## An ES-module project" section');
  for (const m of PAGE.slice(0, esmSection).matchAll(/^`([\w./-]+)`:\n\n```\w*\n([\s\S]*?)\n```/gm)) files[m[1]] = `${m[2]}\n`;
  for (const expected of ['tsconfig.json', 'src/dto.ts', 'src/users.controller.ts', 'src/app.ts', 'src/main.ts', 'jest.config.js', 'src/users.controller.test.ts']) {
    check(files[expected] !== undefined, `docs/getting-started.md must show ${expected} as "\`${expected}\`:" followed by its code block`, Object.keys(files));
  }
  return files;
}

/** The commands of the page's first `sh` block under "## Install", one by one. */
function pageInstallCommands() {
  const section = PAGE.slice(PAGE.indexOf('## Install'));
  const block = /```sh\n([\s\S]*?)\n```/.exec(section);
  check(block, 'docs/getting-started.md must have an sh block under "## Install"');
  return block[1].split('\n').flatMap((line) => line.split('&&')).map((command) => command.trim()).filter(Boolean);
}

/** Runs the page's install commands in `project` as written; `@tern/core` is the tarball. */
function runPageInstall(project, coreTarball) {
  for (const command of pageInstallCommands()) {
    const [tool, ...args] = command.split(/\s+/);
    if (tool === 'mkdir' || tool === 'cd') {
      check(args[0] === path.basename(project), `the page's "${command}" must name the project folder ${path.basename(project)}`);
      fs.mkdirSync(project, { recursive: true });
      continue;
    }
    check(tool === 'npm', `packed-install.mjs does not know how to run the page's "${command}"; teach it`);
    log(`page: ${command}`);
    const installing = args[0] === 'install';
    run(npm, [...args.map((arg) => (arg === '@tern/core' ? coreTarball : arg)), ...(installing ? ['--no-audit', '--no-fund'] : [])], project);
  }
}

/** The page's app, started with `node dist/main.js` as the page says, asked what the page says it answers. */
async function checkPageApp(project) {
  check(PAGE.includes('npx tsc && node dist/main.js'), 'docs/getting-started.md must run the app with `npx tsc && node dist/main.js`');
  const { child, result, output } = await startApp(project, 'dist/main.js', /listening on (\S+), docs at/, { PORT: '0' });
  try {
    check(result.kind === 'listening', 'the page\'s app did not start', output());
    const { address } = result;
    const invalid = await request(address, 'POST', '/users', { name: 'Ada', age: 36, address: { city: 42 } });
    check(invalid.status === 422 && invalid.json.errors?.some((e) => e.path === 'address.city' && e.message === 'city must be a string'), 'page: the curl example must answer the 422 shown', invalid);
    const created = await request(address, 'POST', '/users', { name: 'Ada', age: 36, address: { city: 'London' } });
    check(created.status === 201 && JSON.stringify(created.json) === '{"id":1,"name":"Ada","age":36}', 'page: a valid user must be created', created);
    const patched = await request(address, 'PATCH', '/users/1', { age: 37 });
    check(patched.status === 200 && patched.json.name === 'Ada' && patched.json.age === 37, 'page: PATCH must change only the fields sent', patched);
    const nulled = await request(address, 'PATCH', '/users/1', { age: null });
    check(nulled.status === 422 && nulled.json.errors?.some((e) => e.path === 'age'), 'page: PATCH {"age":null} must be refused (PATCH and null)', nulled);
    const after = await request(address, 'GET', '/users/1');
    check(after.json.age === 37, 'page: a refused PATCH must change nothing', after);
    const doc = await request(address, 'GET', '/openapi.json');
    check(doc.status === 200 && doc.json.paths?.['/users/{id}']?.patch !== undefined, 'page: the document must be at /openapi.json', doc.status);
  } finally {
    child.kill();
  }
}

// ---------------------------------------------------------------------------------------------
// ESM and CommonJS imports of every public name.
// ---------------------------------------------------------------------------------------------

/** Every entry point a user can import: @tern/core's exports (generic over them) and @tern/file-router. */
function entryPoints(project) {
  const core = JSON.parse(fs.readFileSync(path.join(project, 'node_modules', '@tern', 'core', 'package.json'), 'utf8'));
  const subpaths = Object.keys(core.exports).filter((key) => key !== './package.json');
  return [...subpaths.map((key) => (key === '.' ? '@tern/core' : `@tern/core/${key.slice(2)}`)), '@tern/file-router', '@tern/file-router/dev'];
}

async function checkModuleFormats(project) {
  const entries = entryPoints(project);
  // The names CommonJS sees, asked of the installed packages.
  const namesScript = `const out = {}; for (const e of ${JSON.stringify(entries)}) out[e] = Object.keys(require(e)).filter((n) => n !== '__esModule' && n !== 'default'); console.log(JSON.stringify(out));`;
  const names = JSON.parse(run(process.execPath, ['-e', namesScript], project));
  check(names['@tern/core'].length > 50 && names['@tern/core'].includes('TernApp') && names['@tern/core'].includes('Controller'), '@tern/core must export its names to CommonJS', names['@tern/core']);

  const esm = path.join(project, 'esm');
  fs.mkdirSync(path.join(esm, 'src'), { recursive: true });
  fs.writeFileSync(path.join(esm, 'package.json'), JSON.stringify({ type: 'module' }, null, 2));
  // Every name by name: a name Node's CommonJS export detection misses fails to link here.
  const imports = [];
  const rows = [];
  entries.forEach((entry, i) => {
    const list = names[entry].map((name, j) => `${name} as e${i}_${j}`);
    imports.push(`import { ${list.join(', ')} } from '${entry}';`);
    names[entry].forEach((name, j) => rows.push(`[${JSON.stringify(entry)}, ${JSON.stringify(name)}, e${i}_${j}]`));
  });
  fs.writeFileSync(
    path.join(esm, 'import-all.js'),
    `${imports.join('\n')}\nimport { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n` +
      `const rows = [${rows.join(', ')}];\n` +
      `const wrong = rows.filter(([entry, name, value]) => value === undefined || value !== require(entry)[name]).map(([entry, name]) => entry + ' ' + name);\n` +
      `const namespaces = await Promise.all(${JSON.stringify(entries)}.map((e) => import(e)));\n` +
      `const missing = namespaces.flatMap((ns, i) => Object.keys(require(${JSON.stringify(entries)}[i])).filter((n) => n !== '__esModule' && !(n in ns)));\n` +
      `console.log(JSON.stringify({ checked: rows.length, wrong, missing }));\n`,
  );
  const esmResult = JSON.parse(run(process.execPath, ['import-all.js'], esm));
  check(esmResult.wrong.length === 0 && esmResult.missing.length === 0, 'every public name must import by name from ESM, as the object CommonJS gets', esmResult);
  log(`ESM: ${esmResult.checked} names imported by name from ${entries.length} entry points`);

  // TypeScript, module nodenext, in a "type": "module" package, compiled by the project's (today's) TypeScript.
  fs.writeFileSync(
    path.join(esm, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext', moduleResolution: 'nodenext', target: 'ES2022', experimentalDecorators: true, emitDecoratorMetadata: true,
        strictPropertyInitialization: false, rootDir: './src', outDir: './dist', skipLibCheck: true, types: ['node'], strict: true,
      },
      include: ['src'],
    }, null, 2),
  );
  fs.writeFileSync(
    path.join(esm, 'src', 'main.ts'),
    `import 'reflect-metadata';
import { Controller, Get, Param, TernApp } from '@tern/core';
import { Router } from '@tern/core/routing';
import { FileRouter } from '@tern/file-router';

@Controller('/items')
class ItemsController {
  @Get('/{id:int}')
  async get(@Param('id') id: number) {
    return { id, type: typeof id };
  }
}

const app = new TernApp({ prefix: '/api' });
app.registerControllers([ItemsController]);
const health = new Router({ prefix: '/health' });
health.get('/', async () => ({ ok: true }));
app.mountRouter(health);
const item = await app.inject('/api/items/7');
const ok = await app.inject('/api/health');
console.log(JSON.stringify({ item: item.json(), health: ok.json(), fileRouter: typeof FileRouter }));
`,
  );
  run(process.execPath, [path.join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], esm);
  const app = JSON.parse(run(process.execPath, ['dist/main.js'], esm));
  check(
    JSON.stringify(app) === JSON.stringify({ item: { id: 7, type: 'number' }, health: { ok: true }, fileRouter: 'function' }),
    'a module: nodenext ESM app must compile and run',
    app,
  );

  // The page's ES-module setup as written: its jest.config.cjs (swc, and `./app.js` mapped to
  // app.ts) runs a test that imports a controller app the way a nodenext project must, with `.js`.
  fs.writeFileSync(path.join(esm, 'jest.config.cjs'), shownOn('getting-started.md', 'jest.config.cjs'));
  fs.writeFileSync(
    path.join(esm, 'src', 'app.ts'),
    `import 'reflect-metadata';
import { Controller, Get, Param, TernApp } from '@tern/core';
import { greeting } from './greeting.js';

@Controller('/items')
class ItemsController {
  @Get('/{id:int}')
  async get(@Param('id') id: number) {
    return { id, type: typeof id, greeting: greeting() };
  }
}

export function buildApp(): TernApp {
  const app = new TernApp();
  app.registerControllers([ItemsController]);
  return app;
}
`,
  );
  fs.writeFileSync(path.join(esm, 'src', 'greeting.ts'), `export const greeting = () => 'hello';\n`);
  fs.mkdirSync(path.join(esm, 'test'), { recursive: true });
  fs.writeFileSync(
    path.join(esm, 'test', 'app.test.ts'),
    `import { buildApp } from '../src/app.js';

it('answers through a controller imported with .js', async () => {
  const response = await buildApp().inject('/items/7');
  expect(response.json()).toEqual({ id: 7, type: 'number', greeting: 'hello' });
});
`,
  );
  const jestOutput = run(process.execPath, [path.join(project, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci', '--rootDir', '.'], esm);
  log(`ESM: the page's jest.config.cjs ran a test importing ./app.js (${(/Tests:.*/.exec(jestOutput) ?? ['jest passed'])[0].trim()})`);

  // CommonJS: the same names, destructured from require in a .cjs file.
  const cjsLines = entries.map(
    (entry) => `{\n  const { ${names[entry].join(', ')} } = require('${entry}');\n  for (const [n, v] of Object.entries({ ${names[entry].join(', ')} })) if (v === undefined) missing.push('${entry} ' + n);\n}`,
  );
  fs.writeFileSync(path.join(project, 'require-all.cjs'), `const missing = [];\n${cjsLines.join('\n')}\nconsole.log(JSON.stringify(missing));\n`);
  const cjsMissing = JSON.parse(run(process.execPath, ['require-all.cjs'], project));
  check(cjsMissing.length === 0, 'every public name must be defined when required from CommonJS', cjsMissing);
}

/**
 * The installed package holds its bundled router's licences, and loading it loads neither its
 * own node_modules copy of find-my-way nor what the bundle requires only on first call.
 */
function checkBundledRouter(project) {
  const notices = path.join(project, 'node_modules', '@tern', 'core', 'dist', 'bundle', 'THIRD-PARTY-NOTICES.txt');
  check(fs.existsSync(notices), 'the package must ship dist/bundle/THIRD-PARTY-NOTICES.txt');
  const text = fs.readFileSync(notices, 'utf8');
  check(/^find-my-way@\S+ \(MIT\)$/m.test(text) && text.includes('Permission is hereby granted'), 'THIRD-PARTY-NOTICES.txt must carry find-my-way\'s MIT licence', text.slice(0, 400));
  const script = "require('@tern/core'); process.stdout.write(JSON.stringify(Object.keys(require.cache)))";
  const loaded = JSON.parse(run(process.execPath, ['-e', script], project));
  const unexpected = loaded.filter((file) => /[\\/]node_modules[\\/](find-my-way|safe-regex2|ret|fast-querystring)[\\/]/.test(file));
  check(unexpected.length === 0, "require('@tern/core') must not load find-my-way's package or its lazily required dependencies", unexpected);
}

/**
 * jwtVerifier's jose (ESM-only) loads from the installed package: through `esm-import.js` beside
 * the bundle, both when the bundle is compiled and when it runs from V8's cached code (a second
 * start with the same cache folder).
 */
function checkJwtVerifier(project) {
  const script = `const { createHmac } = require('node:crypto');
const { TernApp, HTTPBearer, enforceSecurity, jwtVerifier } = require('@tern/core');
const secret = 'a-secret-of-at-least-thirty-two-bytes';
const part = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
const input = part({ alg: 'HS256' }) + '.' + part({ sub: 'ada', exp: Math.floor(Date.now() / 1000) + 60 });
const token = input + '.' + createHmac('sha256', secret).update(input).digest('base64url');
const app = new TernApp({ logger: false });
app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer());
app.addMiddleware(enforceSecurity(app, { bearerAuth: jwtVerifier({ secret, algorithms: ['HS256'] }) }));
app.get('/me', { security: [{ bearerAuth: [] }] }, async (req) => req.user);
(async () => {
  const good = await app.inject({ url: '/me', headers: { authorization: 'Bearer ' + token } });
  const none = await app.inject({ url: '/me', headers: { authorization: 'Bearer ' + part({ alg: 'none' }) + '.' + input.split('.')[1] + '.' } });
  process.stdout.write(JSON.stringify([good.statusCode, good.json().sub, none.statusCode]));
})().catch((e) => { process.stdout.write(JSON.stringify(String(e))); });`;
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'tern-packed-cache-'));
  try {
    for (const start of ['first start', 'start from the compile cache']) {
      const answer = execFileSync(process.execPath, ['-e', script], { cwd: project, encoding: 'utf8', env: { ...process.env, TERN_COMPILE_CACHE: cache } });
      check(answer === '[200,"ada",401]', `jwtVerifier (${start}): a signed token must be accepted and alg none refused`, answer);
    }
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// 6. The glue pages (database, client, observability) as written, on TypeScript 7 and 5.x.
// ---------------------------------------------------------------------------------------------

/** The code block right after the line "`<file>`:" on a docs page. */
function shownOn(page, file) {
  const text = fs.readFileSync(path.join(repo, 'docs', page), 'utf8');
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`^\`${escaped}\`[^\\n]*:\\n\\n\`\`\`\\w*\\n([\\s\\S]*?)\\n\`\`\``, 'm').exec(text);
  check(match, `docs/${page} must show \`${file}\``);
  return `${match[1]}\n`;
}

/** Calls of the database page's API through the generated types; the marked line must be refused. */
const CLIENT_CALLS = `import createClient from 'openapi-fetch';
import type { paths } from './api';

const client = createClient<paths>({ baseUrl: process.env.BASE_URL });

export async function calls(): Promise<number | undefined> {
  await client.POST('/tags/{name}', { params: { path: { name: 'tern' } } });
  const { data } = await client.GET('/tags/count');
  return data?.count;
}

export async function wrong(): Promise<void> {
  await client.GET('/tags/count', { params: { path: { name: 1 } } }); // WRONG
}
`;

/** observability.md's subscription to tern.request, which must compile on today's @types/node. */
function channelSnippet() {
  const text = fs.readFileSync(path.join(repo, 'docs', 'observability.md'), 'utf8');
  const from = text.indexOf('| `tracing:tern.request:asyncStart` / `asyncEnd` |');
  const match = /```ts\n([\s\S]*?)\n```/.exec(text.slice(from));
  check(from !== -1 && match, 'docs/observability.md must show the tern.request subscription after its events table');
  return `${match[1]}\nexport {};\n`;
}

async function checkGluePages(project, tarballs, tsc5) {
  const glue = path.join(project, 'glue');
  const files = {
    'src/app.ts': shownOn('database.md', 'src/app.ts'),
    'migrations/001-tags.sql': shownOn('database.md', 'migrations/001-tags.sql'),
    'scripts/openapi.ts': shownOn('client.md', 'scripts/openapi.ts'),
    'src/telemetry.ts': shownOn('observability.md', 'src/telemetry.ts'),
    'src/traced.ts': shownOn('observability.md', 'src/main.ts'),
    'src/channel.ts': channelSnippet(),
    // The page's app finds migrations/ beside its compiled folder (rootDir src → dist/app.js);
    // compiled here with rootDir '.', it runs from dist/src/, so the folder is there too.
    'dist/migrations/001-tags.sql': shownOn('database.md', 'migrations/001-tags.sql'),
  };
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(glue, file)), { recursive: true });
    fs.writeFileSync(path.join(glue, file), text);
  }
  const tarball = (prefix) => path.join(tarballs, fs.readdirSync(tarballs).find((file) => file.startsWith(prefix)));
  // Today's packages, except the OpenTelemetry SDK, whose latest line needs Node 22.15 (observability.md).
  const otelSdk = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')).devDependencies['@opentelemetry/sdk-node'];
  log('glue: npm install @tern/postgres @tern/otel (tarballs), @electric-sql/pglite, openapi-fetch, @types/node, the OpenTelemetry SDK');
  run(npm, ['install', '--no-audit', '--no-fund', tarball('tern-postgres-'), tarball('tern-otel-'), '@electric-sql/pglite', 'openapi-fetch', '@types/node@latest', '@opentelemetry/api', `@opentelemetry/sdk-node@${otelSdk}`, `@opentelemetry/instrumentation-http@${otelSdk}`], project);
  const page = JSON.parse(fs.readFileSync(path.join(project, 'tsconfig.json'), 'utf8'));
  const tsconfigFor = (outDir) => ({ ...page, compilerOptions: { ...page.compilerOptions, rootDir: '.', outDir, types: ['node'] }, include: ['src', 'scripts'] });
  fs.writeFileSync(path.join(glue, 'tsconfig.json'), JSON.stringify(tsconfigFor('dist'), null, 2));
  fs.writeFileSync(path.join(glue, 'tsconfig.ts5.json'), JSON.stringify(tsconfigFor('dist-ts5'), null, 2));

  // Written after the first compile (they need openapi.json, which the compiled script writes).
  for (const file of ['src/client.ts', 'src/api.d.ts']) fs.rmSync(path.join(glue, file), { force: true });
  log('glue: npx tsc (today\'s TypeScript and @types/node: the tracing channel snippet among them)');
  run('npx', ['tsc', '-p', 'tsconfig.json'], glue);
  log('glue: client.md: node dist/scripts/openapi.js (no onStartup hook: DATABASE_URL names no server), tern-client-types');
  run(process.execPath, ['-e', "process.env.DATABASE_URL='postgres://nobody:x@127.0.0.1:1/none'; require('./dist/scripts/openapi.js')"], glue);
  run('npx', ['tern-client-types', 'openapi.json', 'src/api.d.ts'], glue);
  fs.writeFileSync(path.join(glue, 'src', 'client.ts'), CLIENT_CALLS);
  const wrongLine = CLIENT_CALLS.split('\n').findIndex((line) => line.includes('// WRONG')) + 1;
  for (const [name, compile] of [
    ['today\'s TypeScript', () => runAsync('npx', ['tsc', '-p', 'tsconfig.json', '--noEmit'], glue)],
    [`TypeScript ${versionOf('typescript')}`, () => runAsync(process.execPath, [tsc5, '-p', 'tsconfig.ts5.json', '--noEmit'], glue)],
  ]) {
    log(`glue: the generated client types with ${name}`);
    const failure = await compile().then(() => 'compiled', (error) => error.message);
    const errors = [...failure.matchAll(/(src\/[\w.]+)\((\d+),\d+\): error/g)].map(([, file, line]) => `${file}:${line}`);
    check(JSON.stringify([...new Set(errors)]) === JSON.stringify([`src/client.ts:${wrongLine}`]), `glue: ${name} must refuse only the wrong call`, failure);
  }

  log('glue: database.md: the app on PGlite');
  const probe = `const { buildApp } = require('./dist/src/app.js');
(async () => {
  const app = buildApp();
  const a = await app.inject({ method: 'POST', url: '/tags/tern' });
  const b = await app.inject({ method: 'POST', url: '/tags/tern' });
  const c = await app.inject('/tags/count');
  const r = await app.inject('/readyz');
  await app.close();
  console.log(JSON.stringify([a.statusCode, b.statusCode, b.json().detail, c.body, r.statusCode]));
})();`;
  const answers = run(process.execPath, ['-e', probe], glue).trim().split('\n').pop();
  check(answers === JSON.stringify([201, 409, 'name has already been taken', '{"count":1}', 200]), 'glue: database.md\'s app must answer as the page says', answers);

  log('glue: observability.md: spans named by route, SIGTERM ends the process');
  const { child, result, output } = await startApp(glue, 'dist/src/traced.js', /listening on (\S+)/, { PORT: '0' });
  try {
    check(result.kind === 'listening', 'glue: observability.md\'s app did not start', output());
    await fetch(`${result.address}/users/7`).then((res) => res.text());
    for (let i = 0; i < 500 && !output().includes("name: 'GET /users/{id}'"); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    check(output().includes("name: 'GET /users/{id}'"), 'glue: the server span must be named by route', output());
    const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    check((await exited) === 0, 'glue: SIGTERM must end the traced app with code 0', output());
  } finally {
    child.kill('SIGKILL');
  }
}

async function main() {
  const tmp = reuse ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tern-packed-'));
  log(`working in ${tmp}`);
  try {
    const tarballs = path.join(tmp, 'tarballs');
    if (!reuse) {
      log('npm run build');
      run(npm, ['run', 'build'], repo);
      fs.mkdirSync(tarballs);
      log('npm pack');
      for (const workspace of ['packages/core', 'packages/file-router', 'packages/postgres', 'packages/otel']) {
        run(npm, ['pack', '--pack-destination', tarballs, '--silent'], path.join(repo, workspace));
      }
    }
    const packed = fs.readdirSync(tarballs);
    const core = packed.find((file) => file.startsWith('tern-core-'));
    const fileRouter = packed.find((file) => file.startsWith('tern-file-router-'));
    check(core && fileRouter, 'npm pack must produce both tarballs', packed);

    // 1. The first page, as written.
    const project = path.join(tmp, 'my-api');
    if (!reuse) runPageInstall(project, path.join(tarballs, core));
    const typescriptVersion = JSON.parse(fs.readFileSync(path.join(project, 'node_modules', 'typescript', 'package.json'), 'utf8')).version;
    log(`page: installed typescript ${typescriptVersion}`);
    for (const [file, text] of Object.entries(pageFiles())) {
      fs.mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
      fs.writeFileSync(path.join(project, file), text);
    }
    log('page: npx tsc');
    run('npx', ['tsc'], project);
    log('page: node dist/main.js');
    await checkPageApp(project);
    log('page: npx jest');
    run('npx', ['jest', '--ci'], project);
    log('page: the bundled router (licence notice, nothing of it loaded from node_modules)');
    checkBundledRouter(project);
    checkJwtVerifier(project);

    // 2. @tern/file-router's tarball on its own.
    log('npm install @tern/file-router (its tarball alone; @tern/core is a peer dependency)');
    run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', path.join(tarballs, fileRouter)], project);
    check(!fs.existsSync(path.join(project, 'node_modules', '@tern', 'file-router', 'node_modules', '@tern', 'core')), '@tern/file-router must use the project\'s @tern/core, not a copy of its own');

    // 3. ESM and CommonJS.
    log('ESM and CommonJS imports of every entry point');
    await checkModuleFormats(project);

    // 4. TypeScript 5.x (the repository's) under NestJS's default tsconfig and its variations.
    const ts5 = path.join(tmp, 'typescript-5');
    fs.mkdirSync(ts5, { recursive: true });
    log(`npm install typescript@${versionOf('typescript')} (for the 5.x variants)`);
    run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-save', `typescript@${versionOf('typescript')}`], ts5);
    const compat = path.join(project, 'compat');
    fs.mkdirSync(path.join(compat, 'src'), { recursive: true });
    for (const [file, text] of Object.entries(APP)) fs.writeFileSync(path.join(compat, file), text.trimStart());
    VARIANTS.forEach((variant, i) => {
      fs.writeFileSync(path.join(compat, `tsconfig.${i}.json`), JSON.stringify(tsconfig({ ...variant.options, outDir: `./dist-${i}` }), null, 2));
    });
    log(`compile ${VARIANTS.length} tsconfig variants with TypeScript ${versionOf('typescript')}`);
    const tsc5 = path.join(ts5, 'node_modules', 'typescript', 'bin', 'tsc');
    await Promise.all(VARIANTS.map((_, i) => runAsync(process.execPath, [tsc5, '-p', `tsconfig.${i}.json`], compat)));
    for (const [i, variant] of VARIANTS.entries()) {
      log(`run: ${variant.name}`);
      await checkRunningApp(compat, variant.name, `dist-${i}`);
    }

    // 6. The glue pages (before 5, which plants a second class-transformer in the project).
    await checkGluePages(project, tarballs, tsc5);

    // 5. Two copies of class-transformer.
    log('a second copy of class-transformer under @tern/core must stop startup');
    const nested = path.join(project, 'node_modules', '@tern', 'core', 'node_modules', 'class-transformer');
    fs.cpSync(path.join(project, 'node_modules', 'class-transformer'), nested, { recursive: true });
    const { child, result, output } = await startApp(compat, 'dist-0/main.js');
    child.kill();
    check(result.kind === 'exited' && result.code === 3, 'with two copies the app must refuse to start', output());
    check(/STARTUP FAILED TERN_DUPLICATE_LIBRARY/.test(output()), 'the failure must carry TERN_DUPLICATE_LIBRARY', output());
    check(output().includes(nested) && output().includes(path.join(project, 'node_modules', 'class-transformer')), 'the message must name both copies', output());

    log('all checks passed');
  } finally {
    if (keep || reuse) log(`kept ${tmp}`);
    // Deleting a node_modules with jest in it takes a while on slow disks: left to a detached rm.
    else if (process.platform !== 'win32') spawn('rm', ['-rf', tmp], { detached: true, stdio: 'ignore' }).unref();
    else fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`[packed] FAILED: ${error.message}`);
  process.exit(1);
});
