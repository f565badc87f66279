/**
 * The compiled response serializer's depth limit: a clear error at a documented depth
 * (docs/responses.md#cost) where the recursive writers would overflow the stack.
 */
import { IsOptional, IsString, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { defaultModelCompiler, TernApp } from '@tern/core';
import { compileResponseSerializer, type ResponseSerializer } from '../src/serialization/compile';
import { listenOnFreePort } from '../../../test-support/raw-http';

describe('a response nested deeper than the serializer writes', () => {
  class TreeNode {
    @IsString() name: string;
    @IsOptional() @ValidateNested() @Type(() => TreeNode) child?: TreeNode;
  }
  const chain = (levels: number) => {
    let node: { name: string; child?: unknown } = { name: 'leaf' };
    for (let i = 1; i < levels; i++) node = { name: `n${i}`, child: node };
    return node;
  };

  it.each([true, false])('writes 1000 levels, and refuses 5000 with TERN_RESPONSE_TOO_DEEP, not a stack overflow (generated code: %s)', (generated) => {
    const serializer = compileResponseSerializer(TreeNode, { codegen: generated, modelCompiler: defaultModelCompiler }) as ResponseSerializer;
    expect(JSON.parse(serializer.serialize(chain(1000)) as string).name).toBe('n999');
    expect(() => serializer.serialize(chain(1001))).toThrow(expect.objectContaining({ code: 'TERN_RESPONSE_TOO_DEEP' }));
    expect(() => serializer.serialize(chain(5000))).toThrow(expect.objectContaining({ code: 'TERN_RESPONSE_TOO_DEEP' }));
    // The count starts again with the next body.
    expect(serializer.serialize({ name: 'again' })).toBe('{"name":"again"}');
  });

  it('answers 500 over a socket and reports the clear error', async () => {
    const reported: unknown[] = [];
    const app = new TernApp({ logger: { error: (...args: unknown[]) => reported.push(...args) } as never });
    app.get('/tree', { responses: { 200: TreeNode } }, async () => chain(5000));
    const port = await listenOnFreePort(app);
    try {
      const answer = await fetch(`http://127.0.0.1:${port}/tree`);
      expect(answer.status).toBe(500);
      expect(reported).toContainEqual(expect.objectContaining({ code: 'TERN_RESPONSE_TOO_DEEP' }));
    } finally {
      await app.close();
    }
  });
});
