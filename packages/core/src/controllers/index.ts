/** Class controllers: decorators that only write metadata; `app.registerControllers` scans them at startup. */
export * from './decorators';
export type { ControllerEntry, ControllerResolver } from './scanner';
export type { ControllerOptions, UploadedFileOptions } from './metadata';
