/**
 * The cluster example's settings, read from the environment once at startup so a typo fails
 * loudly instead of silently running with a default.
 */
import { availableParallelism } from 'node:os';

/**
 * What the primary and each worker run with.
 *
 * @example
 * const settings: ClusterSettings = readSettings({ WORKERS: '2', PORT: '0' });
 */
export interface ClusterSettings {
  /** Worker processes to fork (`WORKERS`, default one per CPU). */
  workers: number;
  /** Port every worker shares (`PORT`, default 3000; 0 picks a free one). */
  port: number;
  /** Address to bind (`HOST`, default 127.0.0.1; a container needs 0.0.0.0). */
  host: string;
  /** Time a worker gives in-flight requests once it stops accepting (`CLOSE_TIMEOUT_MS`, default 10 s). */
  closeTimeoutMs: number;
  /** Time a worker answers `/readyz` 503 while still serving, before it stops accepting (`DRAIN_DELAY_MS`, default 0). */
  drainDelayMs: number;
  /** Time the primary waits for every worker before killing the rest (`SHUTDOWN_TIMEOUT_MS`). */
  shutdownTimeoutMs: number;
  /**
   * The Redis every worker shares rate limits and sessions through (`REDIS_URL`); without it each
   * worker keeps its own in memory, and the primary warns when there are several.
   */
  redisUrl?: string;
  /** Put before the app's Redis keys (`REDIS_KEY_PREFIX`, default `cluster:`). */
  redisKeyPrefix: string;
  /** Requests a client may make to `/limited` per minute, across every worker (`RATE_LIMIT`, default 100). */
  rateLimit: number;
  /**
   * Signs session cookies (`SESSION_SECRET`, 32 characters or more). Every worker needs the same one:
   * without it, `main.ts` draws one per start of the cluster and hands it to the workers.
   */
  sessionSecret?: string;
}

/**
 * Reads the settings from `env`; throws a RangeError naming the variable that is not a
 * non-negative integer.
 *
 * @example
 * const { workers, port } = readSettings(process.env);
 */
export function readSettings(env: NodeJS.ProcessEnv, cpus: number = availableParallelism()): ClusterSettings {
  const workers = integer(env, 'WORKERS', cpus);
  if (workers < 1) throw new RangeError('WORKERS must be at least 1.');
  const closeTimeoutMs = integer(env, 'CLOSE_TIMEOUT_MS', 10_000);
  const drainDelayMs = integer(env, 'DRAIN_DELAY_MS', 0);
  return {
    workers,
    port: integer(env, 'PORT', 3000),
    host: env.HOST || '127.0.0.1',
    closeTimeoutMs,
    drainDelayMs,
    // A worker gives up on its own after drain + close; the primary waits a little longer so a
    // worker that bounded itself is never killed first.
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', drainDelayMs + closeTimeoutMs + 2_000),
    redisUrl: env.REDIS_URL || undefined,
    redisKeyPrefix: env.REDIS_KEY_PREFIX || 'cluster:',
    rateLimit: Math.max(1, integer(env, 'RATE_LIMIT', 100)),
    sessionSecret: env.SESSION_SECRET || undefined,
  };
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new RangeError(`${name} must be a non-negative integer, got '${raw}'.`);
  return Number(raw);
}
