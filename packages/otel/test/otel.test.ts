/**
 * @tern/otel in one process: a server span made active around each request (what the HTTP
 * instrumentation does), Tern's tracing events naming it by route and recording 5xx errors.
 * examples/observability covers the same with the real SDK and HTTP instrumentation over a socket.
 */
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { tracing } from '@opentelemetry/sdk-node';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { HTTPException, TernApp } from '@tern/core';
import { instrumentTern, shutdownWithin } from '@tern/otel';

const exporter = new tracing.InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new tracing.SimpleSpanProcessor(exporter)] });
provider.register();
const stopTern = instrumentTern({ handlerSpans: true });
afterAll(async () => {
  stopTern();
  await provider.shutdown();
  trace.disable();
});

const app = new TernApp({ logger: false });
app.get('/users/{id:int}', async (req, res, { id }) => ({ id }));
app.get('/boom', async () => {
  throw new Error('database is down');
});
app.get('/teapot', async () => {
  throw new HTTPException(418, 'short and stout');
});

/** One request inside a server span, as the HTTP instrumentation makes one; returns the spans it produced. */
async function traced(url: string) {
  exporter.reset();
  const tracer = provider.getTracer('test');
  await tracer.startActiveSpan('GET', async (server) => {
    await app.inject(url);
    server.end();
  });
  return exporter.getFinishedSpans();
}

describe('instrumentTern()', () => {
  it('names the server span by route and sets http.route, with a handler span inside it', async () => {
    const spans = await traced('/users/7');
    const server = spans.find((span) => span.name === 'GET /users/{id}');
    expect(server?.attributes['http.route']).toBe('/users/{id}');
    const handler = spans.find((span) => span.name === 'handler GET /users/{id}');
    expect(handler?.attributes['http.route']).toBe('/users/{id}');
    expect(handler?.spanContext().traceId).toBe(server?.spanContext().traceId);
  });

  it('records a thrown error on the server and handler spans, but not a 4xx', async () => {
    const failed = await traced('/boom');
    for (const name of ['GET /boom', 'handler GET /boom']) {
      const span = failed.find((s) => s.name === name);
      expect([name, span?.status.code]).toEqual([name, SpanStatusCode.ERROR]);
      expect(span?.events.map((event) => event.attributes?.['exception.message'])).toEqual(['database is down']);
    }
    const teapot = await traced('/teapot');
    expect(teapot.every((span) => span.status.code !== SpanStatusCode.ERROR && span.events.length === 0)).toBe(true);
  });

  it('leaves an unmatched request unnamed by route', async () => {
    const spans = await traced('/nowhere');
    expect(spans.map((span) => span.name).sort()).toEqual(['GET', 'handler GET unmatched']);
  });

  it('stops when unsubscribed', async () => {
    const stop = instrumentTern();
    stop();
    expect((await traced('/users/1')).filter((span) => span.name.startsWith('handler')).length).toBe(1);
  });
});

describe('shutdownWithin()', () => {
  it('resolves when the shutdown does, or after the timeout when it hangs', async () => {
    expect(await shutdownWithin(async () => undefined, 10_000)).toBe('done');
    expect(await shutdownWithin(() => new Promise(() => undefined), 50)).toBe('timed out');
  });
});
