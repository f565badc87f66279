/**
 * Keeps every answer a typed client received, as sent (status, content type, body text), so a
 * test can check each against the document the client was generated from (`checkResponse`).
 * It is the client's `fetch`: `createClient<paths>({ baseUrl, fetch: recorder.fetch })`.
 */
export interface RecordedAnswer {
  /** The operation called, as the document names it: `'GET /users/{id}'`. */
  operation: string;
  status: number;
  contentType: string | null;
  body: string;
}

export class Recorder {
  readonly answers: RecordedAnswer[] = [];
  private readonly texts = new WeakMap<Response, string>();

  /** `fetch`, keeping each answer's body text before openapi-fetch parses it. */
  readonly fetch = async (request: Request, init?: RequestInit): Promise<Response> => {
    const response = await globalThis.fetch(request, init);
    this.texts.set(response, await response.clone().text());
    return response;
  };

  /** Waits for a call of `operation` and records its answer; resolves to the call's typed result. */
  async call<Result extends { response: Response }>(operation: string, pending: Promise<Result>): Promise<Result> {
    const result = await pending;
    const { response } = result;
    this.answers.push({ operation, status: response.status, contentType: response.headers.get('content-type'), body: this.texts.get(response) ?? '' });
    return result;
  }
}
