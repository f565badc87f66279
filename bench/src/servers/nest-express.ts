/** NestJS 11 on its default Express adapter (logger off). The application: nest-app.ts. */
import { NestFactory } from '@nestjs/core';
import { nestModule } from './nest-app';
import type { ServerOptions, StartServer } from './types';

export const start: StartServer = async (options: ServerOptions) => {
  const app = await NestFactory.create(nestModule(options.fillers), { logger: false });
  await app.listen(options.port, options.host);
  return { close: () => app.close() };
};
