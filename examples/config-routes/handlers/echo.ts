import type { TernRequest } from '@tern/core';

export async function echo(req: TernRequest<{ word: string }>) {
  return { method: req.method, word: req.pathParams.word };
}
