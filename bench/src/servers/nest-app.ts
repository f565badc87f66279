/**
 * The NestJS application both Nest servers run (Express adapter and Fastify adapter): the usual
 * Nest style, controllers + a ValidationPipe on the body (class-validator model of
 * shared/item-dto.ts, whitelist + transform, the same semantics as Tern's requestModel),
 * ParseIntPipe and a slug pipe on the path parameters, and three NestMiddleware classes on GET /mw.
 * Filler controllers are built at runtime by applying Nest's own decorators as functions.
 */
import 'reflect-metadata';
import {
  Body,
  ClassSerializerInterceptor,
  Controller,
  Get,
  Injectable,
  MiddlewareConsumer,
  Module,
  NestMiddleware,
  Param,
  ParseIntPipe,
  PipeTransform,
  Post,
  Req,
  RequestMethod,
  SerializeOptions,
  UnprocessableEntityException,
  UseInterceptors,
  ValidationPipe,
} from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ItemDto } from '../shared/item-dto';
import { MW_USER, SLUG_RE } from '../shared/payload';
import { colonSubPath, fillerBody, FillerRoute, groupFillers, splitFillers } from '../shared/routes';
import { makePeople, PersonDto } from '../shared/people';
import { makeUsers, UserDto } from '../shared/users';

type RawReq = IncomingMessage & { user?: { id: number } };
type Class = new (...args: never[]) => unknown;

const bodyPipe = new ValidationPipe({ whitelist: true, transform: true });

@Injectable()
class SlugPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!SLUG_RE.test(value)) throw new UnprocessableEntityException('slug must be a slug');
    return value;
  }
}

@Controller()
class RootController {
  @Get()
  hello() {
    return { hello: 'world' };
  }
}

@Controller('users')
class PostsController {
  @Get(':id/posts/:slug')
  post(@Param('id', ParseIntPipe) id: number, @Param('slug', SlugPipe) slug: string) {
    return { id, slug };
  }
}

const users = makeUsers();

/** Scenario 7, the way Nest's docs serialize: ClassSerializerInterceptor with the DTO as the type. */
@Controller('users')
@UseInterceptors(ClassSerializerInterceptor)
class UsersController {
  @Get()
  @SerializeOptions({ type: UserDto, excludeExtraneousValues: true })
  list() {
    return users;
  }
}

const people = makePeople();

/** Scenario 10, the same way. */
@Controller('people')
@UseInterceptors(ClassSerializerInterceptor)
class PeopleController {
  @Get()
  @SerializeOptions({ type: PersonDto, excludeExtraneousValues: true })
  list() {
    return people;
  }
}

let nextId = 0;

@Controller('items')
class ItemsController {
  @Post()
  create(@Body(bodyPipe) item: ItemDto) {
    return { id: ++nextId, ...item };
  }
}

@Controller('mw')
class MwController {
  @Get()
  mw(@Req() req: RawReq | { raw: RawReq }) {
    // Express hands the middleware and the handler the same request; Fastify hands the
    // middleware the raw Node request, reachable from the handler as `req.raw`.
    const raw: RawReq = 'raw' in req ? req.raw : req;
    return { user: raw.user!.id };
  }
}

@Injectable()
class Layer1 implements NestMiddleware {
  async use(_req: RawReq, res: ServerResponse, next: () => void) {
    res.setHeader('x-mw-1', '1');
    next();
  }
}

@Injectable()
class Layer2 implements NestMiddleware {
  async use(req: RawReq, _res: ServerResponse, next: () => void) {
    req.user = MW_USER;
    next();
  }
}

@Injectable()
class Layer3 implements NestMiddleware {
  async use(_req: RawReq, res: ServerResponse, next: () => void) {
    res.setHeader('x-mw-3', '3');
    next();
  }
}

/** One controller class per filler group, its routes added as methods and decorated by hand. */
function fillerControllers(routes: FillerRoute[], tag: string): Class[] {
  const classes: Class[] = [];
  for (const [group, list] of groupFillers(routes)) {
    const cls = class {};
    Object.defineProperty(cls, 'name', { value: `Filler_${group}_${tag}` });
    const proto = cls.prototype as Record<string, unknown>;
    for (const route of list) {
      const key = `r${route.index}`;
      const body = fillerBody(route);
      proto[key] = function filler() {
        return body;
      };
      const descriptor = Object.getOwnPropertyDescriptor(proto, key)!;
      Get(colonSubPath(route).slice(1))(proto, key, descriptor);
    }
    Controller(list[0]!.prefix.slice(1))(cls);
    classes.push(cls);
  }
  return classes;
}

export function nestModule(fillers: number): Class {
  const [before, after] = splitFillers(fillers);
  const controllers = [
    ...fillerControllers(before, 'a'),
    RootController,
    PostsController,
    ItemsController,
    MwController,
    UsersController,
    PeopleController,
    ...fillerControllers(after, 'b'),
  ];

  class BenchModule {
    configure(consumer: MiddlewareConsumer) {
      consumer.apply(Layer1, Layer2, Layer3).forRoutes({ path: 'mw', method: RequestMethod.GET });
    }
  }
  Module({ controllers, providers: [SlugPipe] })(BenchModule);
  return BenchModule;
}
