export type { TernStore } from './store';
export { memoryStore, isMemoryStore } from './memory-store';
export { redisStore, type RedisStoreOptions } from './redis-store';
