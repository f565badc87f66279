/**
 * A typed client's types written from an OpenAPI 3.1 document, without the TypeScript compiler:
 * the `.d.ts` text of `paths`, `operations` and `components`, in the shape openapi-typescript
 * writes and openapi-fetch reads (`createClient<paths>()`). openapi-typescript builds its output
 * with TypeScript 5's compiler API, which TypeScript 7 does not have; this is plain text.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = { [key: string]: Json } | boolean;
type Doc = { [key: string]: Json };

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const PARAMETER_PLACES = ['query', 'header', 'path', 'cookie'] as const;

/**
 * Options of {@link clientTypes}.
 *
 * @example
 * const options: ClientTypesOptions = { binaryAs: 'Blob' };
 */
export interface ClientTypesOptions {
  /** The type of `format: binary` strings (file uploads): `Blob` (default) or `string`. */
  binaryAs?: 'Blob' | 'string';
}

/**
 * The `.d.ts` text for an OpenAPI document (an object, as `/openapi.json` answers it).
 *
 * @example
 * const document = (await app.inject('/openapi.json')).json();
 * writeFileSync('src/api.d.ts', clientTypes(document));
 * // then: const client = createClient<paths>({ baseUrl }) with `import type { paths } from './api'`
 */
export function clientTypes(document: object, options: ClientTypesOptions = {}): string {
  const doc = document as Doc;
  const writer = new TypeWriter(options.binaryAs ?? 'Blob');
  const out: string[] = [
    '// Written by Tern\'s clientTypes() from the OpenAPI document. Do not edit: regenerate.',
    '',
    'export interface paths {',
  ];
  const operations: string[] = [];
  for (const [path, item] of Object.entries(asObject(doc.paths))) {
    const pathItem = asObject(item);
    out.push(`  ${key(path)}: {`);
    out.push(`    parameters: ${writer.parameters(asArray(pathItem.parameters), 4)};`);
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (operation === undefined) {
        out.push(`    ${method}?: never;`);
        continue;
      }
      const op = asObject(operation);
      const body = writer.operation(op, asArray(pathItem.parameters), 4);
      if (typeof op.operationId === 'string') {
        operations.push(`  ${key(op.operationId)}: ${writer.operation(op, asArray(pathItem.parameters), 2)};`);
        out.push(`    ${method}: operations[${JSON.stringify(op.operationId)}];`);
      } else {
        out.push(`    ${method}: ${body};`);
      }
    }
    out.push('  };');
  }
  out.push('}', '', 'export type webhooks = Record<string, never>;', '', 'export interface components {', '  schemas: {');
  const components = asObject(doc.components);
  for (const [name, schema] of Object.entries(asObject(components.schemas))) {
    out.push(`${describe(schema as Schema, '    ')}    ${key(name)}: ${writer.type(schema as Schema, 4)};`);
  }
  out.push('  };');
  out.push('  responses: never;', '  parameters: never;', '  requestBodies: never;', '  headers: never;', '  pathItems: never;', '}', '');
  out.push('export type $defs = Record<string, never>;', '', 'export interface operations {', ...operations, '}', '');
  return out.join('\n');
}

class TypeWriter {
  constructor(private readonly binaryAs: 'Blob' | 'string') {}

  /** `{ query?: {…}; header?: never; path: {…}; cookie?: never }` from the operation's and its path's parameters. */
  parameters(list: Json[], depth: number, inherited: Json[] = []): string {
    const byPlace = new Map<string, Map<string, { required: boolean; schema: Schema; description?: string }>>();
    for (const raw of [...inherited, ...list]) {
      const parameter = asObject(raw);
      const place = String(parameter.in);
      if (!byPlace.has(place)) byPlace.set(place, new Map());
      byPlace.get(place)?.set(String(parameter.name), {
        required: parameter.required === true,
        schema: (parameter.schema ?? {}) as Schema,
        description: typeof parameter.description === 'string' ? parameter.description : undefined,
      });
    }
    const pad = ' '.repeat(depth + 2);
    const lines = PARAMETER_PLACES.map((place) => {
      const entries = byPlace.get(place);
      if (entries === undefined || entries.size === 0) return `${pad}${place}?: never;`;
      const required = [...entries.values()].some((entry) => entry.required);
      const fields = [...entries].map(([name, entry]) => `${pad}  ${key(name)}${entry.required ? '' : '?'}: ${this.type(entry.schema, depth + 4)};`);
      return `${pad}${place}${required ? '' : '?'}: {\n${fields.join('\n')}\n${pad}};`;
    });
    return `{\n${lines.join('\n')}\n${' '.repeat(depth)}}`;
  }

  operation(op: Doc, pathParameters: Json[], depth: number): string {
    const pad = ' '.repeat(depth + 2);
    const lines = [`${pad}parameters: ${this.parameters(asArray(op.parameters), depth + 2, pathParameters)};`];
    if (op.requestBody === undefined) lines.push(`${pad}requestBody?: never;`);
    else {
      const body = asObject(op.requestBody);
      lines.push(`${pad}requestBody${body.required === true ? '' : '?'}: {\n${pad}  content: ${this.content(asObject(body.content), depth + 4)};\n${pad}};`);
    }
    const responses = Object.entries(asObject(op.responses)).map(([status, raw]) => {
      const response = asObject(raw);
      const content = response.content === undefined ? 'never' : this.content(asObject(response.content), depth + 6);
      const statusKey = /^\d+$/.test(status) ? status : key(status);
      return `${pad}  ${statusKey}: {\n${pad}    headers: {\n${pad}      [name: string]: unknown;\n${pad}    };\n${pad}    content${response.content === undefined ? '?' : ''}: ${content};\n${pad}  };`;
    });
    lines.push(`${pad}responses: {\n${responses.join('\n')}\n${pad}};`);
    return `{\n${lines.join('\n')}\n${' '.repeat(depth)}}`;
  }

  content(content: Doc, depth: number): string {
    const pad = ' '.repeat(depth + 2);
    const entries = Object.entries(content).map(([mediaType, raw]) => `${pad}${JSON.stringify(mediaType)}: ${this.type((asObject(raw).schema ?? {}) as Schema, depth + 2)};`);
    return entries.length === 0 ? 'never' : `{\n${entries.join('\n')}\n${' '.repeat(depth)}}`;
  }

  /** A JSON Schema as a TypeScript type. */
  type(schema: Schema, depth: number): string {
    if (schema === true) return 'unknown';
    if (schema === false) return 'never';
    const ref = schema.$ref;
    if (typeof ref === 'string') {
      const match = /^#\/components\/schemas\/(.+)$/.exec(ref);
      return match ? `components["schemas"][${JSON.stringify(decodePointer(match[1]))}]` : 'unknown';
    }
    if ('const' in schema) return literal(schema.const);
    if (Array.isArray(schema.enum)) return union(schema.enum.map(literal));
    const parts: string[] = [];
    if (Array.isArray(schema.allOf)) parts.push(schema.allOf.map((s) => this.type(s as Schema, depth)).join(' & '));
    for (const keyword of ['oneOf', 'anyOf'] as const) {
      const options = schema[keyword];
      if (Array.isArray(options)) parts.push(union(options.map((s) => this.type(s as Schema, depth))));
    }
    const types = Array.isArray(schema.type) ? schema.type.map(String) : typeof schema.type === 'string' ? [schema.type] : [];
    if (types.length > 0) parts.push(union(types.map((type) => this.ofType(type, schema, depth))));
    else if (parts.length === 0) parts.push(schema.properties !== undefined ? this.object(schema, depth) : 'unknown');
    return parts.length === 1 ? parts[0] : parts.map((part) => `(${part})`).join(' & ');
  }

  private ofType(type: string, schema: { [key: string]: Json }, depth: number): string {
    switch (type) {
      case 'string':
        return schema.format === 'binary' ? this.binaryAs : 'string';
      case 'integer':
      case 'number':
        return 'number';
      case 'boolean':
        return 'boolean';
      case 'null':
        return 'null';
      case 'array': {
        const items = schema.items === undefined ? 'unknown' : this.type(schema.items as Schema, depth);
        return /^[\w".[\]]+$/.test(items) ? `${items}[]` : `(${items})[]`;
      }
      case 'object':
        return this.object(schema, depth);
      default:
        return 'unknown';
    }
  }

  private object(schema: { [key: string]: Json }, depth: number): string {
    const pad = ' '.repeat(depth + 2);
    const required = new Set(asArray(schema.required).map(String));
    const lines = Object.entries(asObject(schema.properties)).map(
      ([name, property]) => `${describe(property as Schema, pad)}${pad}${key(name)}${required.has(name) ? '' : '?'}: ${this.type(property as Schema, depth + 2)};`,
    );
    const extra = schema.additionalProperties;
    if (extra !== undefined && extra !== false) lines.push(`${pad}[key: string]: ${extra === true ? 'unknown' : this.type(extra as Schema, depth + 2)};`);
    if (lines.length === 0) return extra === false ? 'Record<string, never>' : 'Record<string, unknown>';
    return `{\n${lines.join('\n')}\n${' '.repeat(depth)}}`;
  }
}

/** A schema's description as a doc comment, so editors show it. */
function describe(schema: Schema, pad: string): string {
  if (typeof schema !== 'object' || typeof schema.description !== 'string') return '';
  return `${pad}/** ${schema.description.replace(/\*\//g, '*\\/').replace(/\n/g, ' ')} */\n`;
}

function literal(value: Json): string {
  return value === null || typeof value !== 'object' ? JSON.stringify(value) : 'unknown';
}

function union(types: string[]): string {
  const unique = [...new Set(types)];
  return unique.length === 0 ? 'never' : unique.join(' | ');
}

/** A property key, quoted unless it is an identifier. */
function key(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

function decodePointer(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

function asObject(value: Json | undefined): Doc {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
}

function asArray(value: Json | undefined): Json[] {
  return Array.isArray(value) ? value : [];
}
