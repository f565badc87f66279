/**
 * What `@ApiProperty()` and class defaults look like to a visitor of /docs: Swagger UI, in
 * Debian's headless Chromium, fills the request body sample with each property's `example` and
 * the response sample with the initialiser default.
 */
import { IsInt, IsOptional, IsString } from 'class-validator';
import type { Page } from 'playwright-core';
import { TernApp } from '@tern/core';
import { serveInBrowser, type BrowserSession } from '../../../test-support/browser';
import { ApiProperty } from '../src/openapi/api-property';

class CreateNote {
  @ApiProperty({ description: 'Shown as the heading', example: 'Buy oat milk' })
  @IsString()
  title: string;

  @ApiProperty({ example: 3 })
  @IsOptional()
  @IsInt()
  priority?: number;
}

class Note {
  @IsInt() id: number;
  @IsString() title: string;
  @IsString() colour: string = 'sunflower';
}

describe('property documentation in /docs', () => {
  let session: BrowserSession;
  let page: Page;

  beforeAll(async () => {
    const app = new TernApp({ openapi: { title: 'Notes' } });
    app.post('/notes', { summary: 'Create a note', requestModel: CreateNote, statusCode: 201, responses: { 201: Note } }, async (req) => ({
      id: 1,
      ...(req.body as CreateNote),
    }));
    session = await serveInBrowser(app);
    page = session.page;
    const response = await page.goto(`${session.origin}/docs`);
    if (response?.status() !== 200) throw new Error(`GET /docs answered ${response?.status()}`);
    await page.waitForSelector('.opblock', { timeout: 60_000 });
    await page.click('.opblock-post .opblock-summary');
    await page.waitForSelector('.opblock-post .opblock-body', { timeout: 60_000 });
  });

  afterAll(() => session?.close());

  it('fills the request body sample with the examples', async () => {
    const sample = await page.textContent('.opblock-post .opblock-section-request-body .highlight-code');
    expect(JSON.parse(sample ?? '')).toEqual({ title: 'Buy oat milk', priority: 3 });
  });

  it('fills the response sample with the class default', async () => {
    const sample = await page.textContent('.opblock-post .responses-wrapper .highlight-code');
    expect(JSON.parse(sample ?? '')).toMatchObject({ colour: 'sunflower' });
  });
});
