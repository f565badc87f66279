#!/usr/bin/env node
/**
 * Installs Tern the way a user does and checks it works there: `npm run build`, `npm pack` the
 * packages, create a fresh project outside the repository (os.tmpdir()), `npm install` the
 * tarballs plus the peer dependencies (from the npm cache where possible), compile a controller
 * app with NestJS's default tsconfig under several compiler settings, start it and ask it over
 * HTTP. Then the same app with a second copy of class-transformer under @tern/core must refuse to
 * start (TERN_DUPLICATE_LIBRARY) instead of accepting unchecked nested data.
 *
 * Run by .ci/run and by `npm run test:packed` (not part of `npm test`: it builds and installs).
 * Takes ~30-60 s with a warm npm cache. Exits non-zero on the first failure.
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
// The app a new user writes (docs/getting-started.md), in a project of its own.
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
  'src/users.controller.test.ts': `
import { buildApp } from './app';

test('creates a user and refuses invalid nested data', async () => {
  const app = buildApp();
  const created = await app.inject({ method: 'POST', url: '/users', payload: { name: 'Ada', age: 36, address: { city: 'London' } } });
  expect(created.statusCode).toBe(201);
  expect(created.json()).toMatchObject({ name: 'Ada', isDto: true, addressIsAddress: true });

  const invalid = await app.inject({ method: 'POST', url: '/users', payload: { name: 'Ada', age: 36, address: { city: 42 } } });
  expect(invalid.statusCode).toBe(422);
  expect(invalid.json().errors).toContainEqual({ path: 'address.city', message: 'city must be a string' });
});
`,
  'jest.config.js': `
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': 'ts-jest' },
  setupFiles: ['reflect-metadata'],
};
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
      types: ['node', 'jest'],
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

async function startApp(project, dist = 'dist') {
  const child = spawn(process.execPath, [`${dist}/main.js`], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const result = await new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ kind: 'timeout' }), 15_000);
    child.stdout.on('data', () => {
      const m = /LISTENING (\S+)/.exec(output);
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
  const { child, result, output } = await startApp(project, dist);
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

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tern-packed-'));
  log(`working in ${tmp}`);
  try {
    log('npm run build');
    run(npm, ['run', 'build'], repo);

    const tarballs = path.join(tmp, 'tarballs');
    fs.mkdirSync(tarballs);
    log('npm pack');
    for (const workspace of ['packages/core', 'packages/file-router']) {
      run(npm, ['pack', '--pack-destination', tarballs, '--silent'], path.join(repo, workspace));
    }
    const packed = fs.readdirSync(tarballs);
    const core = packed.find((file) => file.startsWith('tern-core-'));
    const fileRouter = packed.find((file) => file.startsWith('tern-file-router-'));
    check(core && fileRouter, 'npm pack must produce both tarballs', packed);

    const project = path.join(tmp, 'my-api');
    fs.mkdirSync(path.join(project, 'src'), { recursive: true });
    fs.writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'my-api', version: '1.0.0', private: true }, null, 2),
    );
    for (const [file, text] of Object.entries(APP)) fs.writeFileSync(path.join(project, file), text.trimStart());

    log('npm install (tarballs + peer dependencies)');
    run(
      npm,
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        path.join(tarballs, core),
        path.join(tarballs, fileRouter),
        `class-validator@${versionOf('class-validator')}`,
        `class-transformer@${versionOf('class-transformer')}`,
        `reflect-metadata@${versionOf('reflect-metadata')}`,
        `typescript@${versionOf('typescript')}`,
        `@types/node@${versionOf('@types/node')}`,
        `jest@${versionOf('jest')}`,
        `ts-jest@${versionOf('ts-jest')}`,
        `@types/jest@${versionOf('@types/jest')}`,
      ],
      project,
    );
    check(
      !fs.existsSync(path.join(project, 'node_modules', '@tern', 'core', 'node_modules', 'class-transformer')),
      'class-transformer must be installed once (a peer dependency), not under @tern/core',
    );

    // tsconfig.json is NestJS's default (ts-jest reads it); each variant compiles to its own folder.
    const tsc = path.join(project, 'node_modules', 'typescript', 'bin', 'tsc');
    fs.writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(tsconfig(VARIANTS[0].options), null, 2));
    VARIANTS.forEach((variant, i) => {
      const config = tsconfig({ ...variant.options, outDir: `./dist-${i}` });
      config.exclude = ['src/**/*.test.ts'];
      fs.writeFileSync(path.join(project, `tsconfig.${i}.json`), JSON.stringify(config, null, 2));
    });
    log(`compile ${VARIANTS.length} tsconfig variants, and jest + ts-jest (docs/getting-started.md, "A first test")`);
    await Promise.all([
      ...VARIANTS.map((_, i) => runAsync(process.execPath, [tsc, '-p', `tsconfig.${i}.json`], project)),
      runAsync(process.execPath, [path.join(project, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci'], project),
    ]);
    for (const [i, variant] of VARIANTS.entries()) {
      log(`run: ${variant.name}`);
      await checkRunningApp(project, variant.name, `dist-${i}`);
    }

    log('a second copy of class-transformer under @tern/core must stop startup');
    const nested = path.join(project, 'node_modules', '@tern', 'core', 'node_modules', 'class-transformer');
    fs.cpSync(path.join(project, 'node_modules', 'class-transformer'), nested, { recursive: true });
    const { child, result, output } = await startApp(project, 'dist-0');
    child.kill();
    check(result.kind === 'exited' && result.code === 3, 'with two copies the app must refuse to start', output());
    check(/STARTUP FAILED TERN_DUPLICATE_LIBRARY/.test(output()), 'the failure must carry TERN_DUPLICATE_LIBRARY', output());
    check(output().includes(nested) && output().includes(path.join(project, 'node_modules', 'class-transformer')), 'the message must name both copies', output());

    log('all checks passed');
  } finally {
    if (keep) log(`kept ${tmp}`);
    // Deleting a node_modules with jest in it takes a while on slow disks: left to a detached rm.
    else if (process.platform !== 'win32') spawn('rm', ['-rf', tmp], { detached: true, stdio: 'ignore' }).unref();
    else fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`[packed] FAILED: ${error.message}`);
  process.exit(1);
});
