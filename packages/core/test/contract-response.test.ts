/**
 * `checkResponse` from `@tern/core/testing`: one answer a client received, checked against the
 * document with the contract check's rules (status, content type, schema of the body).
 */
import { TernApp } from '@tern/core';
import { checkResponse } from '@tern/core/testing';

async function documentOf(): Promise<object> {
  const app = new TernApp();
  app.get('/items/{id:int}', { responses: { 200: { id: Number, name: String } }, problems: { 404: 'No such item' } }, async () => ({ id: 1, name: 'pen' }));
  app.delete('/items/{id:int}', { statusCode: 204 }, async () => null);
  app.get('/health', async () => ({ ok: true }));
  return (await app.inject({ method: 'GET', url: '/openapi.json' })).json<object>();
}

describe('checkResponse', () => {
  let document: object;
  beforeAll(async () => {
    document = await documentOf();
  });

  it('accepts an answer the document describes, problem bodies included', () => {
    expect(checkResponse(document, 'GET', '/items/{id}', { status: 200, contentType: 'application/json; charset=utf-8', body: '{"id":1,"name":"pen"}' })).toBeUndefined();
    const problem = { type: 'about:blank', title: 'Not Found', status: 404, detail: 'No item 9', instance: '/items/9' };
    expect(checkResponse(document, 'GET', '/items/{id}', { status: 404, contentType: 'application/problem+json', body: JSON.stringify(problem) })).toBeUndefined();
    expect(checkResponse(document, 'DELETE', '/items/{id}', { status: 204, contentType: null, body: '' })).toBeUndefined();
  });

  it('names what is wrong: a field, a status, a content type, a body the document leaves out', () => {
    expect(checkResponse(document, 'GET', '/items/{id}', { status: 200, contentType: 'application/json', body: '{"id":"1","name":"pen"}' })).toBe(
      'GET /items/{id} answered 200 with a body its schema refuses: /id must be number {"type":"number"}',
    );
    expect(checkResponse(document, 'GET', '/items/{id}', { status: 404, contentType: 'application/problem+json', body: '{"title":"Not Found"}' })).toMatch(/answered 404 with a body its schema refuses: \(body\) must have required property/);
    expect(checkResponse(document, 'GET', '/items/{id}', { status: 418, body: '' })).toBe('GET /items/{id} answered 418, which the operation does not document (it documents 200, 404, 413, 414, 422)');
    expect(checkResponse(document, 'GET', '/items/{id}', { status: 200, contentType: 'text/plain', body: 'pen' })).toBe('GET /items/{id} answered 200 as text/plain, which documents application/json');
    // A route without a response model documents no content: a generated client types its body as absent.
    expect(checkResponse(document, 'GET', '/health', { status: 200, contentType: 'application/json', body: '{"ok":true}' })).toBe(
      'GET /health sent a body with 200, which the document describes without content (application/json: {"ok":true})',
    );
    expect(checkResponse(document, 'POST', '/items/{id}', { status: 200, body: '' })).toBe('POST /items/{id} is not an operation of the document');
  });
});
