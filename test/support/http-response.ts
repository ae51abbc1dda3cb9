import type { TestResponse } from './service';

/** A fetch answer as a TestResponse: the body parsed as JSON where it is JSON, else the text. */
export async function readResponse(res: Response): Promise<TestResponse> {
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body, text };
}
