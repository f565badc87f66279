import { paramList, type ParamMeta, type ParamSource } from '../metadata';
import { misuse } from './targets';

/** Records one parameter decorator (shared by the parameter decorator files). */
export function parameter(source: ParamSource, label: string, extra: Pick<ParamMeta, 'name' | 'model' | 'upload'> = {}): ParameterDecorator {
  return (target, key, index) => {
    if (key === undefined) {
      throw misuse(`${label} on a constructor parameter of ${(target as Function).name}: parameter decorators belong on route methods. Pass dependencies to registerControllers as a built instance instead.`);
    }
    if (typeof target === 'function') throw misuse(`${label} on static method ${target.name}.${String(key)}: routes are instance methods.`);
    paramList(target, key).push({ index, source, label, ...extra });
  };
}

function requireName(label: string, name: unknown): string {
  if (typeof name !== 'string' || name === '') throw misuse(`${label}(name) expects the name as a non-empty string.`);
  return name;
}

/**
 * A path parameter, converted to the parameter's declared type: `number` and `boolean` values
 * that do not convert are a 422 naming the parameter. With a converter in the path
 * (`{id:int}`) the value arrives already converted.
 *
 * @example
 * @Get('/{id:int}/posts/{slug}')
 * async post(@Param('id') id: number, @Param('slug') slug: string) { ... }
 */
export function Param(name: string): ParameterDecorator {
  return parameter('param', `@Param('${requireName('@Param', name)}')`, { name });
}

/**
 * `@Query(name)`: one query parameter converted to the declared type (`string`, `number`,
 * `boolean`, `Date`, `string[]` for repeated values; `undefined` when absent).
 * `@Query()` on a parameter typed by a class-validator class (or `@Query(Model)`): the whole query
 * string converted and validated into an instance, 422 on failure.
 *
 * @example
 * @Get('/')
 * async list(@Query() query: ListUsersQuery, @Query('expand') expand?: boolean) { ... }
 */
export function Query(nameOrModel?: string | Function): ParameterDecorator {
  if (typeof nameOrModel === 'function') return parameter('query', `@Query(${nameOrModel.name})`, { model: nameOrModel });
  if (nameOrModel === undefined) return parameter('query', '@Query()');
  return parameter('query', `@Query('${requireName('@Query', nameOrModel)}')`, { name: nameOrModel });
}

/**
 * The request body, validated against the parameter's class (or `@Body(Model)`) before the
 * method runs: unknown properties are stripped, a failure is a 422 listing each field. The class
 * also becomes the route's `requestModel`, so the OpenAPI document describes the body.
 *
 * @example
 * @Post('/', { statusCode: 201 })
 * async create(@Body() body: CreateUserDto) { ... }
 */
export function Body(model?: Function): ParameterDecorator {
  if (model !== undefined && typeof model !== 'function') throw misuse('@Body(model) expects a class-validator class.');
  return parameter('body', model ? `@Body(${model.name})` : '@Body()', model ? { model } : {});
}

/** A request header (case-insensitive name), converted like {@link Query}; `undefined` when absent. */
export function Header(name: string): ParameterDecorator {
  return parameter('header', `@Header('${requireName('@Header', name)}')`, { name });
}

/** A request cookie, converted like {@link Query}; `undefined` when absent. */
export function Cookie(name: string): ParameterDecorator {
  return parameter('cookie', `@Cookie('${requireName('@Cookie', name)}')`, { name });
}

/** The Tern request. */
export function Req(): ParameterDecorator {
  return parameter('req', '@Req()');
}

/** The Tern response, for setting headers or returning `res.json(data, status)` yourself. */
export function Res(): ParameterDecorator {
  return parameter('res', '@Res()');
}

/** `req.user`, as set by authentication middleware (or `enforceSecurity`). */
export function User(): ParameterDecorator {
  return parameter('user', '@User()');
}
