/**
 * Every example app keeps the contract of its own OpenAPI document: `checkContract` sends each
 * operation valid requests and requests broken in one place, and checks every answer against
 * the document (docs/testing.md). One test per example, each in a few seconds. examples/realworld
 * runs the check in its own suite (realworld.test.ts), signed in, on its own database.
 */
import { checkContract, type ContractOptions } from '@tern/core/testing';
import type { TernApp } from '@tern/core';
import pino from 'pino';
import { buildApp as clusterApp } from './cluster/app';
import { buildApp as configRoutesApp } from './config-routes/app';
import { buildApp as controllersApp } from './controllers/app';
import { buildApp as corsApp } from './cors/app';
import { buildApp as diApp } from './di/app';
import { buildApp as downloadsApp } from './downloads/app';
import { buildApp as fileRouterSiteApp } from './file-router-site/app';
import { buildApp as groupsApp } from './groups/app';
import { buildApp as lifecycleApp } from './lifecycle/app';
import { buildApp as methodHelpersApp } from './method-helpers/app';
import { buildApp as modelCompilerApp } from './model-compiler/app';
import { buildApp as observabilityApp } from './observability/app';
import { buildApp as openapiSecurityApp } from './openapi-security/app';
import { buildApp as responsesApp } from './responses/app';
import { buildApp as routeObjectsApp } from './route-objects/app';
import { buildApp as routersApp } from './routers/app';
import { buildApp as uploadsApp } from './uploads/app';

const examples: Array<[string, () => TernApp, ContractOptions?]> = [
  // `/slow` sleeps up to 5 s per request (it stands for work shutdown must wait for), and clamps
  // `ms` instead of refusing it: a shutdown demo, not an API. The rest of the app is checked.
  ['cluster', () => clusterApp().app, { skip: ['GET /slow'] }],
  ['config-routes', () => configRoutesApp(), {}],
  ['controllers', () => controllersApp(), { auth: { bearerAuth: 'ada-token' } }],
  ['cors', () => corsApp(), {}],
  ['di', () => diApp(), {}],
  ['downloads', () => downloadsApp(), {}],
  ['file-router-site', () => fileRouterSiteApp(), {}],
  ['groups', () => groupsApp().app, {}],
  ['lifecycle', () => lifecycleApp(), {}],
  ['method-helpers', () => methodHelpersApp(), {}],
  ['model-compiler', () => modelCompilerApp(), {}],
  // `/reports/{year}` fails on purpose (it shows a 500 on its span and in the log).
  ['observability', () => observabilityApp(pino({ level: 'silent' })), { skip: ['GET /reports/{year}'] }],
  ['openapi-security', () => openapiSecurityApp(), { auth: { bearerAuth: 'alice-token' } }],
  ['responses', () => responsesApp(), {}],
  ['route-objects', () => routeObjectsApp(), {}],
  ['routers', () => routersApp(), {}],
  ['uploads', () => uploadsApp(), {}],
];

describe('the contract check over every example', () => {
  // Every row has its options (`{}` at least): with two values, jest would hand the test a `done` callback.
  it.each(examples)('%s answers as its document says', async (_name, build, options) => {
    const reports = await checkContract(build(), { seed: 24, ...options });
    // Something was checked: every example has operations the check can send.
    expect(reports.some((report) => report.runs > 0)).toBe(true);
  });
});
