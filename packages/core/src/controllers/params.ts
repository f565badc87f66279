/**
 * Method parameters compiled once, at startup, into small resolver functions. A request only
 * calls them: no metadata is read and no decision about types is taken while serving.
 */
import type { ParameterObject, ReferenceObject, SchemaObject } from 'openapi3-ts/oas31';
import { TernError, type FieldError } from '../errors';
import type { RequestErrorCode, StartupOrServingCode } from '../errors/codes';
import type { TernRequest } from '../http/request';
import type { TernResponse } from '../http/response';
import { SchemaRegistry } from '../openapi/schema';
import type { ValidationResult } from '../validation';
import type { ModelClass, ModelCompiler } from '../validation/model-compiler';
import { withoutNull } from '../openapi/without-null';
import { reflectedPropertyType, type ParamMeta } from './metadata';
import { untypedQueryField, untypedQueryFieldMessage } from './query-field-types';
import { UploadFailure, uploadParam, uploadResolver, type UploadParam } from './uploads';
import { compileStandardSchema, isStandardSchema, queryInput, type StandardSchemaV1 } from '../validation/standard-schema';
import { standardQueryParameters } from '../openapi/schema/standard-query';

/** A request value that failed its parameter: turned into one 422 with every failure listed. */
export class ParamFailure {
  constructor(
    readonly code: RequestErrorCode,
    readonly detail: string,
    readonly errors: FieldError[],
  ) {}
}

/** Resolves one argument: the value, a ParamFailure, or (for `async` resolvers) a Promise of either. */
export type ParamResolver = (req: TernRequest, res: TernResponse) => unknown;

export interface CompiledParam {
  resolve: ParamResolver;
  /** The resolver returns a Promise (query models whose validation may be asynchronous). */
  async: boolean;
  /** `@Body()`: the model the core validates the body against (the route's `requestModel`). */
  requestModel?: Function | StandardSchemaV1;
  /** Query, header and cookie parameters for the OpenAPI document. */
  openapi: ParameterObject[];
  /** The resolver can answer a ParamFailure (a 422), so the document lists one. */
  canFail: boolean;
  /** `@UploadedFile` / `@UploadedFiles`: the file field, for the route options and the document. */
  upload?: UploadParam;
}

/** What the scanner knows about the method a parameter belongs to. */
export interface ParamContext {
  /** `UserController.getUser`, for messages. */
  where: string;
  /** Path parameter names of the full path (controller prefix included). */
  pathParams: ReadonlySet<string>;
  /** The full path, for messages. */
  path: string;
  /** `design:paramtypes` was emitted for the method. */
  typesKnown: boolean;
  /** The app's model compiler: `@Query()` models are compiled and described with it. */
  compiler: ModelCompiler;
  /** Unknown properties of a `@Query()` model are a 422 instead of being stripped. */
  forbidUnknownProperties?: boolean;
  /** Called with each model compiled here (the app warns about models without rules). */
  checkModel?: (model: Function, where: string) => void;
}

const FAIL: unique symbol = Symbol('tern.conversion-failed');

/** How a declared scalar type converts a string (or an already converted value). */
interface Scalar {
  convert: (value: unknown) => unknown;
  /** `must be a number`, completing `<name> must be …`. */
  expected: string;
  schema: SchemaObject;
  /** Every value converts (string, unknown): such a parameter never causes a 422. */
  total?: true;
}

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:?\d{2})?)?$/;

/** `Date` rolls 2024-02-30 over to March 1st; a date parameter must name a real day. */
function calendarDay(iso: string): boolean {
  const year = Number(iso.slice(0, 4));
  const month = Number(iso.slice(5, 7));
  const day = Number(iso.slice(8, 10));
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const SCALARS = new Map<Function, Scalar>([
  [String, { convert: (v) => (typeof v === 'string' ? v : String(v)), expected: 'be a string', schema: { type: 'string' }, total: true }],
  [
    Number,
    {
      convert: (v) => {
        if (typeof v === 'number') return v;
        if (typeof v !== 'string' || !NUMBER.test(v)) return FAIL;
        const n = Number(v);
        return Number.isFinite(n) ? n : FAIL;
      },
      expected: 'be a number',
      schema: { type: 'number' },
    },
  ],
  [
    Boolean,
    {
      convert: (v) => {
        if (typeof v === 'boolean') return v;
        if (v === 'true' || v === '1') return true;
        if (v === 'false' || v === '0') return false;
        return FAIL;
      },
      expected: "be a boolean ('true', 'false', '1' or '0')",
      schema: { type: 'boolean' },
    },
  ],
  [
    Date,
    {
      convert: (v) => {
        if (v instanceof Date) return v;
        if (typeof v !== 'string' || !ISO_DATE.test(v) || !calendarDay(v)) return FAIL;
        const d = new Date(v);
        return Number.isNaN(d.getTime()) ? FAIL : d;
      },
      expected: 'be an ISO 8601 date',
      schema: { type: 'string', format: 'date-time' },
    },
  ],
  // `any`, `unknown`, unions and interfaces reflect as Object: the value is passed as it comes.
  [Object, { convert: (v) => v, expected: '', schema: {}, total: true }],
]);

const WHERE: Record<'param' | 'query' | 'header' | 'cookie', string> = {
  param: 'Path parameter',
  query: 'Query parameter',
  header: 'Header',
  cookie: 'Cookie',
};

function typeName(type: Function | undefined): string {
  return type === undefined ? 'unknown' : type.name || '(anonymous)';
}

function startupError(code: StartupOrServingCode, ctx: ParamContext, meta: ParamMeta, message: string): TernError {
  return new TernError(code, `${ctx.where}, parameter #${meta.index} ${meta.label}: ${message}`);
}

/**
 * Why a parameter's type is unknown, and the two ways out: name the type in the decorator (works
 * under every compiler), or let TypeScript emit it.
 */
function noMetadata(explicit: string): string {
  return (
    `no parameter types were emitted for this method, and the decorator names none. Give the type: ${explicit}. ` +
    "Or compile with tsc (or ts-jest, @swc/jest) with experimentalDecorators and emitDecoratorMetadata, and load 'reflect-metadata' first: " +
    'tsx, esbuild and vitest do not emit decorator metadata.'
  );
}

/** `@Query('page')` → `@Query('page', Number)`: the explicit form of a named parameter, in messages. */
function explicitForm(meta: ParamMeta): string {
  return meta.label.replace(/\)$/, ', Number)');
}

/**
 * Compiles one decorated parameter. `type` is its `design:paramtypes` entry. Throws a `TernError`
 * saying how to fix the declaration when it cannot work.
 */
export function compileParam(meta: ParamMeta, type: Function | undefined, ctx: ParamContext): CompiledParam {
  switch (meta.source) {
    case 'req':
      return plain((req) => req);
    case 'res':
      return plain((_req, res) => res);
    case 'user':
      return plain((req) => req.user);
    case 'body':
      return compileBody(meta, type, ctx);
    case 'query':
      return meta.name === undefined ? compileQueryModel(meta, type, ctx) : compileNamed(meta, type, ctx);
    case 'param':
    case 'header':
    case 'cookie':
      return compileNamed(meta, type, ctx);
    case 'file':
    case 'files':
      return compileUpload(meta);
  }
}

/** `@UploadedFile(name)` / `@UploadedFiles(name?)`: files of the multipart body (see uploads.ts). */
function compileUpload(meta: ParamMeta): CompiledParam {
  const upload = uploadParam(meta);
  const files = uploadResolver(upload);
  const resolve: ParamResolver = (req) =>
    files(req).then((value) => (value instanceof UploadFailure ? new ParamFailure('TERN_VALIDATION_FAILED', value.detail, [{ path: value.path, message: value.message }]) : value));
  return { resolve, async: true, openapi: [], canFail: !upload.multiple, upload };
}

function plain(resolve: ParamResolver): CompiledParam {
  return { resolve, async: false, openapi: [], canFail: false };
}

/** The model class of `@Body()` / `@Query()`: given explicitly, or the reflected type. */
function modelOf(meta: ParamMeta, type: Function | undefined, ctx: ParamContext, usage: string): Function | StandardSchemaV1 {
  const model = meta.model ?? type;
  if (isStandardSchema(model)) return model;
  if (model === undefined) {
    throw startupError('TERN_CONTROLLER_UNRESOLVED_TYPE', ctx, meta, noMetadata(meta.source === 'body' ? '@Body(CreateUserDto)' : '@Query(ListQuery)'));
  }
  // `import type` and interfaces reflect as Object, or as Function under some compiler settings:
  // neither names a class, and both get the same explanation.
  if (model === Object || model === Function) {
    throw startupError(
      'TERN_CONTROLLER_UNRESOLVED_TYPE',
      ctx,
      meta,
      `the parameter's type reflects as ${model.name}, so Tern cannot tell which class to validate ${usage} against. ` +
        'This happens when the DTO is imported with `import type`, or is an interface or a type alias. ' +
        `Import the class as a value (import { CreateUserDto } from './dto'), or name it: ${meta.source === 'body' ? '@Body(CreateUserDto)' : '@Query(ListQuery)'}. ` +
        'To read the raw data instead, take @Req() req and use req.json() or req.queryParams.',
    );
  }
  if (!new SchemaRegistry(ctx.compiler).isModel(model)) {
    throw startupError(
      'TERN_CONTROLLER_UNSUPPORTED_TYPE',
      ctx,
      meta,
      `${usage} must be typed by a class-validator class, not ${typeName(model)}. ` +
        (model === Array
          ? 'For a list, wrap it in a class: @ValidateNested({ each: true }) @Type(() => Item) @IsArray() items: Item[].'
          : meta.source === 'query'
            ? "For a single query parameter, name it: @Query('page')."
            : 'Describe the body with a class whose properties carry class-validator decorators.'),
    );
  }
  return model;
}

function compileBody(meta: ParamMeta, type: Function | undefined, ctx: ParamContext): CompiledParam {
  const model = modelOf(meta, type, ctx, 'the body');
  // The core validates the body into `req.body` before the handler runs (the route's requestModel).
  return { resolve: (req) => req.body, async: false, requestModel: model, openapi: [], canFail: false };
}

/**
 * `@Param(name)`, `@Query(name)`, `@Header(name)`, `@Cookie(name)`. The type is the one given in
 * the decorator, else the reflected one; without either, a path parameter is what its converter
 * made it, and the others cannot be converted.
 */
function compileNamed(meta: ParamMeta, reflected: Function | undefined, ctx: ParamContext): CompiledParam {
  const source = meta.source as 'param' | 'query' | 'header' | 'cookie';
  const name = meta.name as string;
  const type = meta.type ?? (ctx.typesKnown ? reflected : undefined);
  if (type === undefined && source !== 'param') throw startupError('TERN_CONTROLLER_UNRESOLVED_TYPE', ctx, meta, noMetadata(explicitForm(meta)));
  if (source === 'param' && !ctx.pathParams.has(name)) {
    const known = [...ctx.pathParams];
    throw startupError(
      'TERN_CONTROLLER_UNKNOWN_PARAM',
      ctx,
      meta,
      `the path '${ctx.path}' has no parameter '${name}'` +
        (known.length > 0 ? `; its parameters are ${known.map((k) => `'${k}'`).join(', ')}.` : '; it has no parameters.'),
    );
  }

  // No type anywhere (tsx, esbuild): the path's converter already gave the value its type
  // ({id:int} a number, {slug} a string), and the document takes the parameter's schema from it.
  if (type === undefined) return { resolve: (req) => (req.pathParams as Record<string, unknown>)[name], async: false, openapi: [], canFail: false };

  if (source === 'query' && type === Array) {
    return {
      resolve: (req) => {
        const all = req.queryParams.getAll(name);
        return all.length > 0 ? all : undefined;
      },
      async: false,
      openapi: [{ name, in: 'query', required: false, schema: { type: 'array', items: { type: 'string' } }, style: 'form', explode: true }],
      canFail: false,
    };
  }

  const scalar = type === undefined ? undefined : SCALARS.get(type);
  if (!scalar) {
    throw startupError(
      'TERN_CONTROLLER_UNSUPPORTED_TYPE',
      ctx,
      meta,
      `Tern converts ${WHERE[source].toLowerCase()}s to string, number, boolean or Date${source === 'query' ? ' (string[] for repeated values)' : ''}, not ${typeName(type)}. ` +
        (source === 'query' ? 'To read several query parameters into a class, use @Query() with no name.' : 'Declare one of those types, or `unknown` to receive the raw value.'),
    );
  }

  const fail = (value: unknown) =>
    new ParamFailure(
      source === 'param' ? 'TERN_INVALID_PATH_PARAM' : 'TERN_INVALID_PARAMETER',
      `${WHERE[source]} '${name}' must ${scalar.expected}.`,
      [{ path: name, message: `${name} must ${scalar.expected}, got '${String(value)}'` }],
    );
  const convert = scalar.convert;
  const finish = (value: unknown) => {
    if (value === undefined) return undefined;
    const converted = convert(value);
    return converted === FAIL ? fail(value) : converted;
  };

  let resolve: ParamResolver;
  switch (source) {
    case 'param':
      resolve = (req) => finish((req.pathParams as Record<string, unknown>)[name]);
      break;
    case 'query':
      resolve = (req) => finish(req.queryParams.get(name));
      break;
    case 'header':
      resolve = (req) => finish(req.headers.get(name));
      break;
    case 'cookie':
      resolve = (req) => finish(req.cookies.get(name));
      break;
  }
  const openapi: ParameterObject[] = source === 'param' ? [] : [{ name, in: source, required: false, schema: { ...scalar.schema } }];
  return { resolve, async: false, openapi, canFail: scalar.total !== true };
}

/**
 * `@Query() dto`: the query string as an object, each value converted by its property's declared
 * type (the `enableImplicitConversion` idea, but strict: `'abc'` for a number stays a string so
 * the property's own rules report it), then validated with `whitelist`.
 */
function compileQueryModel(meta: ParamMeta, type: Function | undefined, ctx: ParamContext): CompiledParam {
  const given = modelOf(meta, type, ctx, 'the query string');
  if (isStandardSchema(given)) return compileQuerySchema(given, meta, ctx);
  const model = given as ModelClass;
  ctx.checkModel?.(model, ctx.where);
  const validate = ctx.compiler.compile(model, { whitelist: true, forbidNonWhitelisted: ctx.forbidUnknownProperties === true });
  const fields = queryFields(model, ctx.compiler, (field, message) => startupError('TERN_CONTROLLER_UNRESOLVED_TYPE', ctx, meta, message));

  const finish = (result: ValidationResult<object>, failures: FieldError[] | undefined): unknown => {
    if (result.ok && !failures) return result.value;
    const errors = result.ok ? [] : [...result.errors];
    // A value that did not convert and that no rule of the model reported is reported here.
    for (const failure of failures ?? []) if (!errors.some((e) => e.path === failure.path)) errors.push(failure);
    return new ParamFailure('TERN_VALIDATION_FAILED', 'Query parameters failed validation.', errors);
  };

  const resolve: ParamResolver = (req) => {
    const input = req.queryParams.toObject() as Record<string, unknown>;
    let failures: FieldError[] | undefined;
    for (const [key, field] of fields) {
      const raw = input[key];
      if (raw === undefined) continue;
      if (field.list) {
        input[key] = Array.isArray(raw) ? raw : [raw];
        continue;
      }
      const value = Array.isArray(raw) ? raw[0] : raw;
      const converted = field.scalar.convert(value);
      if (converted === FAIL) {
        input[key] = value;
        (failures ??= []).push({ path: key, message: `${key} must ${field.scalar.expected}` });
      } else {
        input[key] = converted;
      }
    }
    const result = validate(input);
    return result instanceof Promise ? result.then((r) => finish(r, failures)) : finish(result, failures);
  };
  return { resolve, async: true, openapi: queryModelParameters(model, ctx.compiler), canFail: true };
}

/**
 * `@Query(schema)` with a Standard Schema: the query string shaped by the schema's JSON Schema
 * (`queryInput`), validated by its library; the handler gets the library's output.
 */
function compileQuerySchema(schema: StandardSchemaV1, meta: ParamMeta, ctx: ParamContext): CompiledParam {
  const validate = compileStandardSchema(schema as StandardSchemaV1<unknown, object>);
  const prepare = queryInput(schema);
  const finish = (result: ValidationResult<object>): unknown =>
    result.ok ? result.value : new ParamFailure('TERN_VALIDATION_FAILED', 'Query parameters failed validation.', [...result.errors]);
  const resolve: ParamResolver = (req) => {
    const result = validate(prepare(req.queryParams.toObject()));
    return result instanceof Promise ? result.then(finish) : finish(result);
  };
  let openapi: ParameterObject[];
  try {
    openapi = standardQueryParameters(schema);
  } catch (err) {
    throw startupError('TERN_CONTROLLER_UNSUPPORTED_TYPE', ctx, meta, `${(err as Error).message}.`);
  }
  return { resolve, async: true, openapi, canFail: true };
}

interface QueryField {
  /** Typed as an array: a single value becomes a one-element list. */
  list: boolean;
  scalar: Scalar;
}

/** The properties a query model accepts, by the parameter name each is sent under, and how each converts, read once. */
function queryFields(model: ModelClass, compiler: ModelCompiler, refuse: (field: string, message: string) => Error): Map<string, QueryField> {
  const fields = new Map<string, QueryField>();
  for (const property of compiler.describe(model).properties) {
    if (property.hiddenInInput === true) continue;
    const key = property.inputName ?? property.name;
    const { declaredType } = property;
    const emitted = reflectedPropertyType(model.prototype, property.name);
    const missing = untypedQueryField(property, emitted);
    if (missing !== undefined) throw refuse(property.name, untypedQueryFieldMessage(model.name, property.name, missing));
    // Without decorator metadata (tsx, esbuild, vitest), a scalar `@Type(() => Number)` says it.
    const type = (emitted !== Object ? emitted : undefined) ?? (declaredType && SCALARS.has(declaredType) ? declaredType : emitted);
    const list = type === Array || type === Set;
    // Strings, untyped and nested values pass as they are (a repeated parameter gives its first value).
    const scalar = (!list && type !== undefined && SCALARS.get(type)) || (SCALARS.get(Object) as Scalar);
    fields.set(key, { list, scalar });
  }
  return fields;
}

/** One OpenAPI query parameter per property of the model, with the property's JSON Schema. */
function queryModelParameters(model: Function, compiler: ModelCompiler): ParameterObject[] {
  const registry = new SchemaRegistry(compiler);
  const ref = registry.ref(model, 'request').$ref;
  const schema = registry.components()[ref.slice(ref.lastIndexOf('/') + 1)];
  const required = new Set(schema.required ?? []);
  const out: ParameterObject[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {}) as Array<[string, SchemaObject | ReferenceObject]>) {
    // Nested models have no query-string form; they are validated but not documented here.
    if (JSON.stringify(property).includes('"$ref"')) continue;
    const parameter: ParameterObject = { name, in: 'query', required: required.has(name), schema: withoutNull(property) };
    // What @ApiProperty says of the property is said of the parameter too (Swagger UI shows it there).
    const { description, deprecated } = property as SchemaObject & { deprecated?: boolean };
    if (typeof description === 'string') parameter.description = description;
    if (deprecated === true) parameter.deprecated = true;
    if ((property as SchemaObject).type === 'array') Object.assign(parameter, { style: 'form', explode: true });
    out.push(parameter);
  }
  return out;
}
