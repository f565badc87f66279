import { paramList, type ParamMeta, type ParamSource, type UploadedFileOptions } from '../metadata';
import { misuse } from './targets';
import { describeStandardSchema, isStandardSchema, type StandardSchemaV1 } from '../../validation/standard-schema';

/** Records one parameter decorator. */
function parameter(source: ParamSource, label: string, extra: Pick<ParamMeta, 'name' | 'model' | 'upload' | 'type'> = {}): ParameterDecorator {
  return (target, key, index) => {
    if (key === undefined) {
      throw misuse(`${label} on a constructor parameter of ${(target as Function).name}: parameter decorators belong on route methods. Pass dependencies to registerControllers as a built instance instead.`);
    }
    if (typeof target === 'function') throw misuse(`${label} on static method ${target.name}.${String(key)}: routes are instance methods.`);
    paramList(target, key).push({ index, source, label, ...extra });
  };
}

function requireName(label: string, name: unknown, what = 'the name'): string {
  if (typeof name !== 'string' || name === '') throw misuse(`${label}(name) expects ${what} as a non-empty string.`);
  return name;
}

/** The types a named parameter converts to; `Array` (string[]) only for query parameters. */
const SCALAR_TYPES: readonly Function[] = [String, Number, Boolean, Date, Object];

/** The explicit type of `@Query('page', Number)`: checked here, so a typo fails where it is written. */
function explicitType(label: string, name: string, type: unknown, allowArray = false): Pick<ParamMeta, 'name' | 'type'> {
  if (type === undefined) return { name };
  if (typeof type !== 'function' || !(SCALAR_TYPES.includes(type) || (allowArray && type === Array))) {
    throw misuse(`${label}('${name}', type): type must be String, Number, Boolean, Date or Object${allowArray ? ' (Array for repeated values)' : ''}.`);
  }
  return { name, type };
}

/**
 * A path parameter, converted to the parameter's declared type: `number` and `boolean` values
 * that do not convert are a 422 naming the parameter. With a converter in the path
 * (`{id:int}`) the value arrives already converted. Code compiled without decorator metadata
 * (tsx, esbuild, vitest) gets the value as the path's converter made it (`{id:int}` a number,
 * `{slug}` a string), or the type given as the second argument.
 *
 * @example
 * @Get('/{id:int}/posts/{slug}')
 * async post(@Param('id') id: number, @Param('slug') slug: string) { ... }
 *
 * @Get('/{year}')
 * async archive(@Param('year', Number) year: number) { ... }   // the type given: no metadata needed
 */
export function Param(name: string, type?: NamedParamType): ParameterDecorator {
  const label = `@Param('${requireName('@Param', name)}')`;
  return parameter('param', label, explicitType('@Param', name, type));
}

/** What `@Param`, `@Query`, `@Header` and `@Cookie` convert to when given a type: String, Number, Boolean, Date, Object (as it comes). */
export type NamedParamType = StringConstructor | NumberConstructor | BooleanConstructor | DateConstructor | ObjectConstructor;

/**
 * `@Query(name)`: one query parameter converted to the declared type (`string`, `number`,
 * `boolean`, `Date`, `string[]` for repeated values; `undefined` when absent). `@Query(name, Number)`
 * gives the type explicitly (`Array` for `string[]`): code compiled without decorator metadata
 * (tsx, esbuild, vitest) needs it.
 * `@Query()` on a parameter typed by a class-validator class (or `@Query(Model)`): the whole query
 * string converted and validated into an instance, 422 on failure.
 *
 * @example
 * @Get('/')
 * async list(@Query() query: ListUsersQuery, @Query('expand') expand?: boolean) { ... }
 *
 * @Get('/articles')
 * async articles(@Query('limit', Number) limit = 20, @Query('tag', Array) tags?: string[]) { ... }
 */
export function Query(nameOrModel?: string | Function | StandardSchemaV1, type?: NamedParamType | ArrayConstructor): ParameterDecorator {
  if (isStandardSchema(nameOrModel)) return parameter('query', `@Query(${describeStandardSchema(nameOrModel)})`, { model: nameOrModel });
  if (typeof nameOrModel === 'function') return parameter('query', `@Query(${nameOrModel.name})`, { model: nameOrModel });
  if (nameOrModel === undefined) return parameter('query', '@Query()');
  return parameter('query', `@Query('${requireName('@Query', nameOrModel)}')`, explicitType('@Query', nameOrModel, type, true));
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
export function Body(model?: Function | StandardSchemaV1): ParameterDecorator {
  if (isStandardSchema(model)) return parameter('body', `@Body(${describeStandardSchema(model)})`, { model });
  if (model !== undefined && typeof model !== 'function') throw misuse('@Body(model) expects a class-validator class or a Standard Schema (zod, valibot, arktype…).');
  return parameter('body', model ? `@Body(${model.name})` : '@Body()', model ? { model } : {});
}

/**
 * A request header (case-insensitive name), converted like {@link Query}; `undefined` when absent.
 * `@Header(name, Type)` gives the type explicitly, for code compiled without decorator metadata.
 *
 * @example
 * async list(@Header('x-request-id', String) requestId?: string) { ... }
 */
export function Header(name: string, type?: NamedParamType): ParameterDecorator {
  return parameter('header', `@Header('${requireName('@Header', name)}')`, explicitType('@Header', name, type));
}

/**
 * A request cookie, converted like {@link Query}; `undefined` when absent. `@Cookie(name, Type)`
 * gives the type explicitly, for code compiled without decorator metadata.
 *
 * @example
 * async cart(@Cookie('cart', String) cartId?: string) { ... }
 */
export function Cookie(name: string, type?: NamedParamType): ParameterDecorator {
  return parameter('cookie', `@Cookie('${requireName('@Cookie', name)}')`, explicitType('@Cookie', name, type));
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

/**
 * One file of a `multipart/form-data` request, from the form field `name`, as a `MultipartFile`
 * (`fieldName`, `filename`, `mimeType`, `size`, `buffer`) held in memory. The route then
 * consumes multipart bodies (another Content-Type is a 415) and its OpenAPI request body lists
 * the file as `format: binary`. A missing file is a 422 (unless `required: false`), two files
 * in the field a 422, a file over `maxSize` a 413, a type outside `mimeTypes` a 415 naming the
 * accepted types. `mimeType` is what the client declared, not sniffed from the bytes.
 *
 * @example
 * @Post('/avatar')
 * async upload(@UploadedFile('avatar', { maxSize: 1024 * 1024, mimeTypes: ['image/png', 'image/jpeg'] }) avatar: MultipartFile) {
 *   return { size: avatar.size, type: avatar.mimeType };
 * }
 */
export function UploadedFile(name: string, options?: UploadedFileOptions): ParameterDecorator {
  const label = `@UploadedFile('${requireName('@UploadedFile', name, 'the form field name')}')`;
  return parameter('file', label, { name, upload: checkUploadOptions(label, options, true) });
}

/**
 * The files of a `multipart/form-data` request as a list of `MultipartFile`: those of the form
 * field `name`, or every file when no name is given (an empty list when there are none).
 * `maxSize` and `mimeTypes` apply to each file, with the answers of {@link UploadedFile}.
 *
 * @example
 * @Post('/gallery')
 * async add(@UploadedFiles('photos', { mimeTypes: ['image/*'] }) photos: MultipartFile[], @Body() meta: GalleryDto) {
 *   return { count: photos.length, title: meta.title };
 * }
 */
export function UploadedFiles(name?: string, options?: UploadedFileOptions): ParameterDecorator {
  const label = name === undefined ? '@UploadedFiles()' : `@UploadedFiles('${requireName('@UploadedFiles', name, 'the form field name')}')`;
  return parameter('files', label, { name, upload: checkUploadOptions(label, options, false) });
}

const MEDIA_RANGE = /^[a-z0-9!#$&^_.+-]+\/(?:\*|[a-z0-9!#$&^_.+-]+)$/i;

/** Checks upload options when the class is defined; returns a copy with media types lowercased. */
function checkUploadOptions(label: string, options: UploadedFileOptions | undefined, single: boolean): UploadedFileOptions {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null) throw misuse(`${label}: options must be an object ({ maxSize, mimeTypes${single ? ', required' : ''} }).`);
  const { maxSize, mimeTypes, required } = options;
  if (maxSize !== undefined && (!Number.isInteger(maxSize) || maxSize <= 0)) throw misuse(`${label}: maxSize must be a positive whole number of bytes.`);
  if (mimeTypes !== undefined && (!Array.isArray(mimeTypes) || mimeTypes.length === 0 || !mimeTypes.every((t) => typeof t === 'string' && MEDIA_RANGE.test(t)))) {
    throw misuse(`${label}: mimeTypes must be a non-empty list of media types such as 'image/png' or 'image/*'.`);
  }
  if (required !== undefined && (!single || typeof required !== 'boolean')) throw misuse(`${label}: required is a boolean option of @UploadedFile.`);
  return { maxSize, mimeTypes: mimeTypes?.map((t) => t.toLowerCase()), required };
}
