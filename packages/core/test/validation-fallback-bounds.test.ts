/**
 * A model that falls back to class-transformer + class-validator (a trimming `@Transform` on its
 * item type is enough) cannot be made to build and walk an unbounded body (issue 26 item 2): its
 * size rules are checked on the body before class-transformer runs, and its bodies are bounded
 * in values. Over a real connection, with 1 MiB bodies; cost is observed as how many items
 * class-transformer built (Tag's constructor counts them), never as time.
 */
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, IsString, ValidateNested } from 'class-validator';
import { MakeConfig, TernApp } from '@tern/core';
import { defaultModelCompiler } from '../src/validation';
import { bodyOf, listenOnFreePort, rawRequest, statusOf } from '../../../test-support/raw-http';

let built = 0;

class Tag {
  constructor() {
    built++; // class-transformer builds one Tag per item it is handed
  }

  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsOptional()
  @IsString()
  name?: string;
}

class Bounded {
  @IsArray()
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => Tag)
  items: Tag[];
}

class Group {
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => Bounded)
  groups: Bounded[];
}

class Unbounded {
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => Tag)
  items: Tag[];
}

beforeEach(() => (built = 0));

/** `{"items":[{},{},…]}` of about `bytes` bytes. */
function emptyItems(key: string, bytes: number): string {
  return `{"${key}":[${new Array(Math.floor(bytes / 3)).fill('{}').join(',')}]}`;
}

describe('the class-validator fallback on large bodies', () => {
  let app: TernApp;
  let port: number;
  beforeAll(async () => {
    app = new TernApp({ config: new MakeConfig({ bodyLimit: 2 * 1024 * 1024 }), logger: false });
    app.post('/bounded', { requestModel: Bounded }, async (req) => ({ count: (req.body as Bounded).items.length }));
    app.post('/unbounded', { requestModel: Unbounded }, async (req) => ({ count: (req.body as Unbounded).items.length }));
    port = await listenOnFreePort(app);
  });
  afterAll(() => app.close());

  const post = async (target: string, body: string) => {
    const response = await rawRequest(
      port,
      `POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      { waitMs: 30_000 },
    );
    return { status: statusOf(response), body: JSON.parse(bodyOf(response)) as { errors?: Array<{ path: string; message: string }> } };
  };

  it('the models fall back', () => {
    expect(defaultModelCompiler.compile(Bounded).native).toBe(false);
    expect(defaultModelCompiler.compile(Unbounded).native).toBe(false);
  });

  it('refuses 1 MiB of items past @ArrayMaxSize(1000) with that rule alone, building none of them', async () => {
    const response = await post('/bounded', emptyItems('items', 1024 * 1024));
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([{ path: 'items', message: 'items must contain no more than 1000 elements' }]);
    expect(built).toBe(0);
  });

  it('refuses 1 MiB of items without a size rule by its value count, building none of them', async () => {
    const response = await post('/unbounded', emptyItems('items', 1024 * 1024));
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([{ path: '', message: 'body must not contain more than 10000 values' }]);
    expect(built).toBe(0);
  });

  it('still serves bodies within the rules', async () => {
    const items = JSON.stringify({ items: Array.from({ length: 1000 }, () => ({ name: ' a ' })) });
    expect(await post('/bounded', items)).toEqual({ status: 200, body: { count: 1000 } });
    expect(built).toBe(1000);
  });
});

describe('the fallback size gate', () => {
  it('checks size rules of nested models on the body, naming the path class-validator would', async () => {
    const validate = defaultModelCompiler.compile(Group);
    const body = { groups: [{ items: [] }, { items: new Array(1001).fill({}) }] };
    expect(await validate(body)).toEqual({ ok: false, errors: [{ path: 'groups.1.items', message: 'items must contain no more than 1000 elements' }] });
    expect(built).toBe(0);
  });

  it('answers exactly as class-validator does when the sizes are right', async () => {
    const result = await defaultModelCompiler.compile(Bounded)({ items: [{ name: 5 }] });
    expect(result).toEqual({ ok: false, errors: [{ path: 'items.0.name', message: 'name must be a string' }] });
  });

  it('keeps maxFallbackValues configurable', async () => {
    const body = { items: new Array(50).fill({}) };
    expect(await defaultModelCompiler.compile(Unbounded, { maxFallbackValues: 20 })(body)).toEqual({ ok: false, errors: [{ path: '', message: 'body must not contain more than 20 values' }] });
    expect(await defaultModelCompiler.compile(Unbounded, { maxFallbackValues: 200 })(body)).toMatchObject({ ok: true });
  });
});
