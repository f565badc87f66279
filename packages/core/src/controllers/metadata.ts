/**
 * The one metadata store of the controller layer. Decorators only write here (through
 * `reflect-metadata` keys); the scanner reads it once, in `app.ready()`. Nothing reads it while
 * serving requests.
 */
import 'reflect-metadata';
import type { Middleware, ResponseSchema, RouteOptions, SecurityRequirement } from '../routing/types';

/** `@Controller(prefix, options)` options. */
export interface ControllerOptions {
  /** Tags put before each route's own tags in the OpenAPI document. */
  tags?: string[];
  /** Runs for every route of the controller, before the routes' own middleware. */
  middleware?: Middleware[];
  /** Security requirements of every route that declares none itself. */
  security?: SecurityRequirement[];
  /** Route names inside become `name.routeName` (as with a named `Router`). */
  name?: string;
  /** Hides every route of the controller from the OpenAPI document. */
  excludeFromSchema?: boolean;
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

/** One `@Get`/`@Post`/…/`@Route` on a method. */
export interface RouteDecl {
  path: string;
  methods: string[];
  options: RouteOptions;
}

/** Everything recorded on one method. */
export interface MethodMeta extends LevelMeta {
  routes: RouteDecl[];
  summary?: string;
  description?: string;
  operationId?: string;
}

/** Where a parameter's value comes from. */
export type ParamSource = 'param' | 'query' | 'body' | 'header' | 'cookie' | 'req' | 'res' | 'user';

/** One decorated method parameter. */
export interface ParamMeta {
  index: number;
  source: ParamSource;
  /** The path parameter, query parameter, header or cookie name; absent for whole-object sources. */
  name?: string;
  /** A model class given explicitly (`@Body(Model)`, `@Query(Model)`) instead of the reflected type. */
  model?: Function;
  /** The decorator as written, for error messages: `@Param('id')`. */
  label: string;
}

const CONTROLLER = 'tern:controller';
const CLASS_LEVEL = 'tern:controller:class';
const METHOD_NAMES = 'tern:controller:methods';
const METHOD = 'tern:controller:method';
const PARAMS = 'tern:controller:params';

function emptyLevel(): LevelMeta {
  return { security: [], public: false, middleware: [], tags: [], responses: [], deprecated: false, excludeFromSchema: false };
}

/** The object stored under `key` on exactly this target (never an inherited one), created on first use. */
function own<T>(key: string, target: object, property: string | symbol | undefined, create: () => T): T {
  const existing =
    property === undefined ? Reflect.getOwnMetadata(key, target) : Reflect.getOwnMetadata(key, target, property);
  if (existing !== undefined) return existing as T;
  const created = create();
  if (property === undefined) Reflect.defineMetadata(key, created, target);
  else Reflect.defineMetadata(key, created, target, property);
  return created;
}

/** Remembers that a method of `proto` carries controller metadata, so the scanner can list it. */
function noteMethod(proto: object, method: string | symbol): void {
  const names = own<Array<string | symbol>>(METHOD_NAMES, proto, undefined, () => []);
  if (!names.includes(method)) names.push(method);
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
  return own(CLASS_LEVEL, cls, undefined, emptyLevel);
}

export function getClassLevel(cls: Function): LevelMeta {
  return Reflect.getOwnMetadata(CLASS_LEVEL, cls) ?? emptyLevel();
}

/** Method-level metadata for writing; created on first use. */
export function methodMeta(proto: object, method: string | symbol): MethodMeta {
  noteMethod(proto, method);
  return own<MethodMeta>(METHOD, proto, method, () => ({ ...emptyLevel(), routes: [] }));
}

/** Parameter metadata for writing; created on first use. */
export function paramList(proto: object, method: string | symbol): ParamMeta[] {
  noteMethod(proto, method);
  return own<ParamMeta[]>(PARAMS, proto, method, () => []);
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
    const names: Array<string | symbol> = Reflect.getOwnMetadata(METHOD_NAMES, proto) ?? [];
    for (const key of names) {
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({
        key,
        owner: proto,
        meta: Reflect.getOwnMetadata(METHOD, proto, key),
        params: Reflect.getOwnMetadata(PARAMS, proto, key) ?? [],
      });
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
