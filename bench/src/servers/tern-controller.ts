/**
 * Tern with the same routes written as decorated controllers (`registerControllers`).
 * The filler controllers are built at runtime by applying Tern's decorators as functions,
 * which is exactly what the `@` syntax compiles to.
 */
import 'reflect-metadata';
import { Body, Controller, Get, Param, Post, Req, TernApp, UseMiddleware } from '@tern/core';
import type { TernRequest } from '@tern/core';
import { ItemDto } from '../shared/item-dto';
import { MW_USER } from '../shared/payload';
import { fillerBody, FillerRoute, groupFillers, splitFillers, ternSubPath } from '../shared/routes';
import { PEOPLE_PATH, PersonDto, makePeople } from '../shared/people';
import { USERS_PATH, UserDto, makeUsers } from '../shared/users';
import { layer1, layer2, layer3 } from './tern-middleware';
import type { ServerOptions, StartServer } from './types';

type Class = new () => object;

@Controller()
class RootController {
  @Get('/')
  async hello() {
    return { hello: 'world' };
  }
}

@Controller('/users')
class PostsController {
  @Get('/{id:int}/posts/{slug:slug}')
  async post(@Param('id') id: number, @Param('slug') slug: string) {
    return { id, slug };
  }
}

const users = makeUsers();

@Controller()
class UsersController {
  @Get(USERS_PATH, { responses: { 200: [UserDto] } })
  async list() {
    return users;
  }
}

const people = makePeople();

@Controller()
class PeopleController {
  @Get(PEOPLE_PATH, { responses: { 200: [PersonDto] } })
  async list() {
    return people;
  }
}

let nextId = 0;

@Controller('/items')
class ItemsController {
  @Post('/', { statusCode: 201 })
  async create(@Body() item: ItemDto) {
    return { id: ++nextId, ...item };
  }
}

@Controller('/mw')
class MwController {
  @Get('/')
  @UseMiddleware(layer1, layer2, layer3)
  async mw(@Req() req: TernRequest) {
    return { user: (req.user as typeof MW_USER).id };
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
      proto[key] = async function filler() {
        return body;
      };
      const descriptor = Object.getOwnPropertyDescriptor(proto, key)!;
      Get(ternSubPath(route))(proto, key, descriptor);
    }
    Controller(list[0]!.prefix)(cls);
    classes.push(cls);
  }
  return classes;
}

export const start: StartServer = async (options: ServerOptions) => {
  const app = new TernApp();
  const [before, after] = splitFillers(options.fillers);
  app.registerControllers([
    ...fillerControllers(before, 'a'),
    RootController,
    PostsController,
    ItemsController,
    MwController,
    UsersController,
    PeopleController,
    ...fillerControllers(after, 'b'),
  ]);
  await app.listen({ port: options.port, host: options.host });
  return { close: () => app.close() };
};
