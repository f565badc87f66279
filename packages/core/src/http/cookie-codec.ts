import type * as Cookie from 'cookie';
import type { SerializeOptions } from 'cookie';
import { onFirstUse } from './on-first-use';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const cookieModule = onFirstUse(() => require('cookie') as typeof Cookie);

/**
 * A Cookie header's pairs, by name (the `cookie` package, loaded on its first use: an app whose
 * requests carry no cookie and that sets none never loads it).
 */
export function parseCookieHeader(header: string): Record<string, string | undefined> {
  return cookieModule().parse(header);
}

/** One Set-Cookie header value; the options are the `cookie` package's. */
export function serializeCookie(name: string, value: string, options?: SerializeOptions): string {
  return cookieModule().serialize(name, value, options);
}
