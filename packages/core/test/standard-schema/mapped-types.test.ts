/**
 * Mapped types copy class-validator metadata, which a Standard Schema does not have: given one,
 * they refuse with a message naming the library's own helpers rather than a bare "needs a class".
 */
import { z } from 'zod';
import { IntersectionType, OmitType, PartialType, PickType } from '@tern/core';

const User = z.object({ name: z.string(), email: z.string() });

describe('mapped types and Standard Schemas', () => {
  it.each([
    ['PartialType', () => PartialType(User as never)],
    ['PickType', () => PickType(User as never, ['name'] as never)],
    ['OmitType', () => OmitType(User as never, ['name'] as never)],
    ['IntersectionType', () => IntersectionType(User as never, User as never)],
  ])('%s refuses a zod schema, pointing at .partial()/.pick()/.omit()', (helper, map) => {
    expect(map).toThrow(expect.objectContaining({ code: 'TERN_INVALID_MAPPED_TYPE', message: expect.stringContaining(`${helper}() maps class-validator classes, not a zod schema`) }));
    expect(map).toThrow(/zod: \.partial\(\), \.pick\(\), \.omit\(\)/);
  });
});
