/**
 * The one metadata store of the controller layer. Decorators only write here (through
 * `reflect-metadata` keys); the scanner reads it once, in `app.ready()`. Nothing reads it while
 * serving requests.
 */
import 'reflect-metadata';
import type { InheritedRouteOptions, Middleware, ResponseSchema, RouteOptions, SecurityRequirement } from '../routing/types';
import type { StandardSchemaV1 } from '../validation/standard-schema/spec';

/**
 * `@Controller(prefix, options)` options: its `name`, and the route options every route of the
 * controller inherits (`InheritedRouteOptions`), combined with each route's own by the route
 * options table's rules, as a `Router`'s are.
 */
export interface ControllerOptions extends InheritedRouteOptions {
  /** Route names inside become `name.routeName` (as with a named `Router`). */
  name?: string;
}

/** What `@Controller` records on the class. */
export interface ControllerMeta {
  prefix: string;
  options: ControllerOptions;
}

/**
 * What the decorators usable on a class or on a method record (`@Security`, `@Public`, `@Tags`,
 * `@UseMiddleware`, `@ApiResponse`, `@Deprecated`, `@ExcludeFromSchema`). Lists are kept in the
 * order the decorators are written, top to bottom.
 */
export interface LevelMeta {
  security: SecurityRequirement[];
  public: boolean;
  middleware: Middleware[];
  tags: string[];
  responses: Array<[number, ResponseSchema]>;
  deprecated: boolean;
  excludeFromSchema: boolean;
}

/** One `@Get`/`@Post`/…/`@Route` (or `@WebSocket`) on a method. */
export interface RouteDecl {
  path: string;
  methods: string[];
  options: RouteOptions;
  /** `@WebSocket`: the method returns the socket's handlers. */
  socket?: true;
}

/** Everything recorded on one method. */
export interface MethodMeta extends LevelMeta {
  routes: RouteDecl[];
  summary?: string;
  description?: string;
  operationId?: string;
  /** `@Tags(..., { replace: true })`: the route's tags replace its controller's instead of following them. */
  replaceTags?: boolean;
}

/** Where a parameter's value comes from. */
export type ParamSource = 'param' | 'query' | 'body' | 'header' | 'cookie' | 'req' | 'res' | 'user' | 'file' | 'files';

/**
 * `@UploadedFile(name, options)` / `@UploadedFiles(name, options)` options.
 *
 * @example
 * const avatar: UploadedFileOptions = { maxSize: 1024 * 1024, mimeTypes: ['image/png', 'image/jpeg'] };
 */
export interface UploadedFileOptions {
  /** Largest accepted file in bytes; larger is a 413 naming the field. */
  maxSize?: number;
  /** Accepted media types (`image/png`, or `image/*` for a whole family, SVG only when listed by name); another is a 415 listing them. */
  mimeTypes?: string[];
  /** `@UploadedFile` only: a missing file is a 422 unless this is `false` (then the argument is `undefined`). */
  required?: boolean;
}

/** One decorated method parameter. */
export interface ParamMeta {
  index: number;
  source: ParamSource;
  /** The path parameter, query parameter, header or cookie name; absent for whole-object sources. */
  name?: string;
  /** A model class given explicitly (`@Body(Model)`, `@Query(Model)`) instead of the reflected type. */
  model?: Function | StandardSchemaV1;
  /** A scalar type given explicitly (`@Query('page', Number)`), for code compiled without decorator metadata. */
  type?: Function;
  /** The decorator as written, for error messages: `@Param('id')`. */
  label: string;
  /** `@UploadedFile` / `@UploadedFiles` options. */
  upload?: UploadedFileOptions;
}

const CONTROLLER = 'tern:controller';
const CLASS_LEVEL = 'tern:controller:class';
const METHODS = 'tern:controller:methods';

/** What the decorators recorded on one method of one prototype. */
interface MethodRecord {
  /** Absent while only parameter decorators ran. */
  meta?: MethodMeta;
  params: ParamMeta[];
}

function emptyLevel(): LevelMeta {
  return { security: [], public: false, middleware: [], tags: [], responses: [], deprecated: false, excludeFromSchema: false };
}

/** The object stored under `key` on exactly this target (never an inherited one), created on first use. */
function own<T>(key: string, target: object, create: () => T): T {
  const existing = Reflect.getOwnMetadata(key, target);
  if (existing !== undefined) return existing as T;
  const created = create();
  Reflect.defineMetadata(key, created, target);
  return created;
}

/**
 * The record of one decorated method. A prototype keeps one map of them, in the order their first
 * decorator ran: one metadata lookup per decorator, and the scanner lists a class's methods from it.
 */
function methodRecord(proto: object, method: string | symbol): MethodRecord {
  const records = own(METHODS, proto, () => new Map<string | symbol, MethodRecord>());
  let record = records.get(method);
  if (!record) records.set(method, (record = { params: [] }));
  return record;
}

export function setControllerMeta(cls: Function, meta: ControllerMeta): void {
  Reflect.defineMetadata(CONTROLLER, meta, cls);
}

/** The class's own `@Controller` (a subclass needs its own). */
export function getControllerMeta(cls: Function): ControllerMeta | undefined {
  return Reflect.getOwnMetadata(CONTROLLER, cls);
}

/** Class-level metadata for writing; created on first use. */
export function classLevel(cls: Function): LevelMeta {
  return own(CLASS_LEVEL, cls, emptyLevel);
}

export function getClassLevel(cls: Function): LevelMeta {
  return Reflect.getOwnMetadata(CLASS_LEVEL, cls) ?? emptyLevel();
}

/** Method-level metadata for writing; created on first use. */
export function methodMeta(proto: object, method: string | symbol): MethodMeta {
  const record = methodRecord(proto, method);
  // A literal, not `{ ...emptyLevel(), routes }`: a spread copy with one more key is several
  // times larger, and every decorated method keeps one.
  return (record.meta ??= {
    security: [],
    public: false,
    middleware: [],
    tags: [],
    responses: [],
    deprecated: false,
    excludeFromSchema: false,
    routes: [],
  });
}

/** Parameter metadata for writing; created on first use. */
export function paramList(proto: object, method: string | symbol): ParamMeta[] {
  return methodRecord(proto, method).params;
}

/** A method as declared on one prototype of the chain. */
export interface DeclaredMethod {
  key: string | symbol;
  /** The prototype whose class declared the decorators. */
  owner: object;
  meta?: MethodMeta;
  params: ParamMeta[];
}

/**
 * Every decorated method of `cls`, its own first then inherited ones; a method redeclared with
 * decorators in a subclass replaces the base class's declaration.
 */
export function declaredMethods(cls: Function): DeclaredMethod[] {
  const out: DeclaredMethod[] = [];
  const seen = new Set<string | symbol>();
  for (let proto = cls.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    const records: Map<string | symbol, MethodRecord> | undefined = Reflect.getOwnMetadata(METHODS, proto);
    for (const [key, record] of records ?? []) {
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ key, owner: proto, meta: record.meta, params: record.params });
    }
  }
  return out;
}

/** `design:paramtypes` of a method as TypeScript emitted it, or undefined without the metadata. */
export function reflectedParamTypes(owner: object, key: string | symbol): Function[] | undefined {
  return Reflect.getOwnMetadata('design:paramtypes', owner, key);
}

/** `design:type` of a property (used for query DTO fields). */
export function reflectedPropertyType(proto: object, key: string): Function | undefined {
  return Reflect.getMetadata('design:type', proto, key);
}
