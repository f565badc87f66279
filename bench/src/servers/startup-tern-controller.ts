/**
 * Startup (issue 27, c): Tern with N/10 decorated controllers `@Controller('/rI')`, each with
 * ten methods `@Get('/mJ/{id:int}') mJ(@Param('id') id: number)`.
 *
 * The classes are made in a loop, and decorated with exactly what `tsc` emits for that source
 * with `experimentalDecorators` and `emitDecoratorMetadata`: `Reflect.decorate` with the method's
 * decorators, its parameter decorator and the three `design:` metadata entries (so `id` is known
 * to be a `Number`), then the class decorator.
 */
import 'reflect-metadata';
import { Controller, Get, Param, TernApp } from '@tern/core';
import { StartupRoute, startupBody, startupRoutes } from '../shared/startup-routes';
import { startTimed } from './startup-phases';
import type { ServerOptions, StartServer } from './types';

type Class = new () => object;

/** What `tsc` emits for a parameter decorator (its `__param` helper). */
const onParameter =
  (index: number, decorator: ParameterDecorator): MethodDecorator =>
  (target, key) =>
    decorator(target, key, index);

function controllers(routes: StartupRoute[]): Class[] {
  const byResource = new Map<number, StartupRoute[]>();
  for (const route of routes) {
    const list = byResource.get(route.resource) ?? [];
    list.push(route);
    byResource.set(route.resource, list);
  }
  const classes: Class[] = [];
  for (const [resource, list] of byResource) {
    const cls = class {};
    Object.defineProperty(cls, 'name', { value: `R${resource}Controller` });
    const proto = cls.prototype as Record<string, unknown>;
    for (const route of list) {
      const key = `m${route.method}`;
      proto[key] = async function method(id: number) {
        return startupBody(route, id);
      };
      const descriptor = Reflect.decorate(
        [
          Get(`${route.sub}/{id:int}`),
          onParameter(0, Param('id')),
          Reflect.metadata('design:type', Function),
          Reflect.metadata('design:paramtypes', [Number]),
          Reflect.metadata('design:returntype', Promise),
        ],
        proto,
        key,
        Object.getOwnPropertyDescriptor(proto, key),
      );
      if (descriptor) Object.defineProperty(proto, key, descriptor);
    }
    classes.push(Reflect.decorate([Controller(list[0]!.prefix)], cls) as Class);
  }
  return classes;
}

/** The app of `count` routes in controllers of ten, declared (bench/test checks its document). */
export function startupControllerApp(count: number): TernApp {
  return new TernApp().registerControllers(controllers(startupRoutes(count)));
}

export const start: StartServer = (options: ServerOptions) => startTimed(() => startupControllerApp(options.routes), options);
