import { validate } from '@readme/openapi-parser';
import { buildApp } from './app';

/**
 * The whole document of this example, as a client generator receives it. The snapshot is
 * reviewed like code: a change to it is a change to what every client of the API sees.
 */
describe('the notes document', () => {
  it('matches the reviewed snapshot', async () => {
    const response = await buildApp().inject('/openapi.json');
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.stringify(response.json(), null, 2)).toMatchSnapshot();
  });

  it('is valid OpenAPI 3.1', async () => {
    const result = await validate((await buildApp().inject('/openapi.json')).json());
    expect(result).toEqual({ valid: true, warnings: [], specification: 'OpenAPI' });
  });
});
