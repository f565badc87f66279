/** NestJS 11 on @nestjs/platform-fastify (logger off). The application: nest-app.ts. */
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { nestModule } from './nest-app';
import type { ServerOptions, StartServer } from './types';

export const start: StartServer = async (options: ServerOptions) => {
  const app = await NestFactory.create<NestFastifyApplication>(nestModule(options.fillers), new FastifyAdapter(), {
    logger: false,
  });
  await app.listen(options.port, options.host);
  return { close: () => app.close() };
};
