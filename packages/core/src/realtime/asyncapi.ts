/**
 * The AsyncAPI 3.0 document of the app's sockets, served at `asyncapi.json` beside the OpenAPI
 * document: each socket route a channel (its address and path parameters), the frames it
 * receives as a message whose payload is the `messageModel`'s schema (the same schemas the
 * OpenAPI document gives request bodies: a class's, or a Standard Schema's `jsonSchema.input`), and a `receive` operation with the route's summary,
 * tags and security. Built once, on its first request, from the routes' `RouteInfo`.
 */
import type { OpenAPIConfig } from '../openapi/config';
import { SchemaRegistry } from '../openapi/schema';
import { joinPaths } from '../routing/path';
import type { Declaration } from '../routing/router';
import type { RouteInfo } from '../routing/route-info';
import { Routes } from '../routing/routes';
import type { ModelCompiler } from '../validation/model-compiler';
import { isStandardSchema, type StandardSchemaV1 } from '../validation/standard-schema';

type Json = Record<string, unknown>;

/** Where the document is served, under the app's prefix. */
export const ASYNCAPI_PATH = '/asyncapi.json';

/** Tern's route serving the document, when the app has socket routes and serves documents at all. */
export function asyncapiDeclarations(routes: readonly RouteInfo[], config: OpenAPIConfig, modelCompiler: ModelCompiler, prefix: string): Declaration[] {
  if (config.openapiPath === false || !routes.some((route) => route.websocket)) return [];
  // Built now, in ready(): a model the schema builder cannot describe fails startup, not the first reader.
  const document = Buffer.from(JSON.stringify(buildAsyncAPIDocument(routes, config, modelCompiler)));
  return [
    new Routes({
      path: joinPaths([prefix], ASYNCAPI_PATH),
      methods: ['GET'],
      excludeFromSchema: true,
      handler: async (req, res) => res.send(document, 'application/json; charset=utf-8'),
    }),
  ];
}

/**
 * The document itself.
 *
 * @example
 * const doc = buildAsyncAPIDocument(app.getAllRoutes(), app.openapiConfig, app.modelCompiler);
 * doc.channels; // { 'rooms-id': { address: '/rooms/{id}', parameters: { id: {...} }, messages: {...} } }
 */
export function buildAsyncAPIDocument(routes: readonly RouteInfo[], config: OpenAPIConfig, modelCompiler: ModelCompiler): Json {
  const registry = new SchemaRegistry(modelCompiler);
  const channels: Json = {};
  const operations: Json = {};
  const used = new Set<string>();
  const schemes = new Set<string>();
  for (const route of routes) {
    if (!route.websocket || route.options.excludeFromSchema === true) continue;
    const id = uniqueId(route.name ?? (route.rawPath.replace(/\{([^}:]+)(?::[^}]*)?\}/g, '$1').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'root'), used);
    const model = route.options.messageModel;
    const message: Json =
      model === undefined
        ? { name: 'frame', contentType: 'text/plain', payload: { type: 'string' }, description: 'A text frame (string) or a binary frame.' }
        : isStandardSchema(model)
          ? standardMessage(registry, model, id)
          : { name: model.name, contentType: 'application/json', payload: registry.ref(model, 'request') };
    channels[id] = compact({
      address: route.rawPath.replace(/\{([^}:]+)(?::[^}]*)?\}/g, '{$1}'),
      summary: route.options.summary,
      description: route.options.description,
      parameters: route.params.length > 0 ? Object.fromEntries(route.params.map((p) => [p.name, parameter(p.converter, p.schema)])) : undefined,
      messages: { [messageId(message)]: message },
    });
    const security = (route.security ?? []).flatMap((requirement) =>
      Object.entries(requirement).map(([name, scopes]) => {
        schemes.add(name);
        return scopes.length === 0 ? { $ref: `#/components/securitySchemes/${name}` } : { ...asyncapiScheme(config, name), scopes };
      }),
    );
    operations[`receive-${id}`] = compact({
      action: 'receive',
      channel: { $ref: `#/channels/${id}` },
      summary: route.options.summary,
      description: route.options.description,
      messages: [{ $ref: `#/channels/${id}/messages/${messageId(message)}` }],
      tags: route.tags.length > 0 ? route.tags.map((name) => ({ name })) : undefined,
      security: security.length > 0 ? security : undefined,
    });
  }
  const schemas = registry.components();
  const securitySchemes = Object.fromEntries([...schemes].map((name) => [name, asyncapiScheme(config, name)]));
  return compact({
    asyncapi: '3.0.0',
    info: compact({ title: config.title, version: config.version, description: config.description }),
    defaultContentType: 'application/json',
    channels,
    operations,
    components: compact({
      schemas: Object.keys(schemas).length > 0 ? schemas : undefined,
      securitySchemes: Object.keys(securitySchemes).length > 0 ? securitySchemes : undefined,
    }),
  });
}

/**
 * A Standard Schema message: its `~standard.jsonSchema.input` registered as the OpenAPI document
 * registers request bodies (a named schema becomes a component and names the message; an unnamed
 * one is inline, and the message takes the channel's name).
 */
function standardMessage(registry: SchemaRegistry, schema: StandardSchemaV1, channel: string): Json {
  const payload = registry.schemaFor(schema, 'request') as Json;
  const ref = typeof payload.$ref === 'string' ? payload.$ref : undefined;
  return { name: ref === undefined ? `${channel}-message` : ref.slice(ref.lastIndexOf('/') + 1), contentType: 'application/json', payload };
}

function messageId(message: Json): string {
  return String(message.name).replace(/[^A-Za-z0-9_-]/g, '_');
}

function uniqueId(base: string, used: Set<string>): string {
  let id = base;
  for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
  used.add(id);
  return id;
}

/** AsyncAPI parameters carry no schema: what the converter accepts goes in the description (and its values, when it lists them). */
function parameter(converter: string, schema: Readonly<Record<string, unknown>>): Json {
  const pattern = typeof schema.pattern === 'string' ? `, matching ${schema.pattern}` : '';
  return compact({ description: `A path segment read by the '${converter}' converter (${String(schema.type ?? 'string')}${pattern}).`, enum: Array.isArray(schema.enum) ? schema.enum.map(String) : undefined });
}

/** An OpenAPI security scheme in AsyncAPI 3's words (API keys sent over HTTP are `httpApiKey`; OAuth2 scopes are `availableScopes`). */
function asyncapiScheme(config: OpenAPIConfig, name: string): Json {
  const openapi = (config.securitySchemes.get(name)?.toOpenAPI() ?? {}) as unknown as Json;
  const description = typeof openapi.description === 'string' ? openapi.description : undefined;
  switch (openapi.type) {
    case 'apiKey':
      return compact({ type: 'httpApiKey', name: openapi.name, in: openapi.in, description });
    case 'http':
      return compact({ type: 'http', scheme: openapi.scheme, bearerFormat: openapi.bearerFormat, description });
    case 'oauth2': {
      const flows: Json = {};
      for (const [flow, value] of Object.entries((openapi.flows ?? {}) as Record<string, Json>)) {
        const { scopes, ...rest } = value;
        flows[flow] = { ...rest, availableScopes: scopes ?? {} };
      }
      return compact({ type: 'oauth2', flows, description });
    }
    case 'openIdConnect':
      return compact({ type: 'openIdConnect', openIdConnectUrl: openapi.openIdConnectUrl, description });
    default:
      return compact({ ...openapi, description });
  }
}

function compact<T extends Json>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
