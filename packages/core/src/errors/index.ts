export * from './tern-error';
export * from './http-exception';
