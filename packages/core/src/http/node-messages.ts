/**
 * The request and response classes Tern's own server creates (`createHttpServer` hands them to
 * node:http). They add nothing themselves. They give features that extend Node's objects for
 * code written against Node's (fromConnect's Express additions) a prototype of Tern's own to put
 * those on, once: Node's global classes stay untouched, and a request pays nothing for an
 * addition it never reads. A prototype swap per request, as Express does, measured 3× the CPU
 * per request (V8 then sees a new shape at every property read in Node's HTTP code).
 */
import { IncomingMessage, ServerResponse } from 'node:http';

export class TernIncomingMessage extends IncomingMessage {}

export class TernServerResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {}
