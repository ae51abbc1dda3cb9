import { describe, expect, it } from 'vitest';
import { OpenAiCompatibleAgent, SYSTEM_PROMPT, type AgentFetch, type AgentModelContext } from '../../../../src-main/connectors/agent';

const MODEL: AgentModelContext = {
  deploymentId: 7,
  branch: 'main',
  commit: null,
  views: [
    {
      kind: 'view',
      name: 'sales',
      description: 'Orders with revenue',
      members: [
        { name: 'revenue', kind: 'measure', type: 'sum' },
        { name: 'status', kind: 'dimension', type: 'string' },
      ],
    },
  ],
  cubes: [{ kind: 'cube', name: 'orders', members: [{ name: 'count', kind: 'measure', type: 'count' }] }],
};

interface Captured {
  url: string;
  init: Parameters<AgentFetch>[1];
}

function fakeFetch(status: number, body: unknown, headers: Record<string, string> = {}): { fetch: AgentFetch; calls: Captured[] } {
  const calls: Captured[] = [];
  const fetch: AgentFetch = async (url, init) => {
    calls.push({ url, init });
    return {
      status,
      ok: status >= 200 && status < 300,
      headers: { get: (name: string) => headers[name.toLowerCase()] ?? null },
      text: async () => (typeof body === 'string' ? body : JSON.stringify(body)),
    };
  };
  return { fetch, calls };
}

const agent = (fetch: AgentFetch, extra: Partial<ConstructorParameters<typeof OpenAiCompatibleAgent>[0]> = {}) =>
  new OpenAiCompatibleAgent({ baseUrl: 'https://llm.example/v1/', apiKey: 'sk-test-123', model: 'gpt-test', fetch, ...extra });

const completion = (content: string) => ({
  id: 'chatcmpl-1',
  model: 'gpt-test-2026',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 },
});

describe('OpenAI-compatible agent client', () => {
  it('posts a chat completion with the bearer key, the model metadata as system message and the prompt as user message', async () => {
    const { fetch, calls } = fakeFetch(200, completion('Query `sales.revenue` by `sales.status`.'));
    await agent(fetch).ask({ prompt: 'Revenue by status?', model: MODEL });
    expect(calls).toHaveLength(1);
    const [{ url, init }] = calls;
    expect(url).toBe('https://llm.example/v1/chat/completions');
    expect(init.method).toBe('POST');
    expect(init.headers.authorization).toBe('Bearer sk-test-123');
    expect(init.headers['content-type']).toBe('application/json');
    const body = JSON.parse(init.body);
    expect(body).toMatchObject({ model: 'gpt-test', temperature: 0 });
    expect(body.messages).toHaveLength(2);
    expect(body.messages[0].role).toBe('system');
    expect(body.messages[0].content.startsWith(SYSTEM_PROMPT)).toBe(true);
    expect(body.messages[0].content).toContain('view sales: Orders with revenue');
    expect(body.messages[0].content).toContain('- measure revenue (sum)');
    expect(body.messages[1]).toEqual({ role: 'user', content: 'Revenue by status?' });
  });

  it('returns the message content, the answering model, token usage and the model members it names', async () => {
    const { fetch } = fakeFetch(200, completion('Query `sales.revenue` by `sales.status`.'));
    const reply = await agent(fetch).ask({ prompt: 'Revenue by status?', model: MODEL });
    expect(reply).toEqual({
      content: 'Query `sales.revenue` by `sales.status`.',
      agent: 'gpt-test-2026',
      references: [{ kind: 'view', name: 'sales', members: ['revenue', 'status'] }],
      usage: { promptTokens: 120, completionTokens: 30 },
    });
  });

  it('maps 401 to AGENT_UNAUTHORIZED with the endpoint message, never the key', async () => {
    const { fetch } = fakeFetch(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } });
    const error = await agent(fetch).ask({ prompt: 'x', model: MODEL }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'AGENT_UNAUTHORIZED', retryable: false, options: { status: 401 } });
    expect((error as Error).message).toContain('Incorrect API key provided');
    expect((error as Error).message).not.toContain('sk-test-123');
  });

  it('maps 429 to a retryable AGENT_RATE_LIMITED with Retry-After, and 5xx to a retryable AGENT_UNAVAILABLE', async () => {
    const limited = await agent(fakeFetch(429, { error: { message: 'Rate limit reached' } }, { 'retry-after': '7' }).fetch)
      .ask({ prompt: 'x', model: MODEL })
      .catch((e: unknown) => e);
    expect(limited).toMatchObject({ code: 'AGENT_RATE_LIMITED', retryable: true, options: { retryAfterMs: 7000 } });
    const down = await agent(fakeFetch(503, 'upstream connect error').fetch)
      .ask({ prompt: 'x', model: MODEL })
      .catch((e: unknown) => e);
    expect(down).toMatchObject({ code: 'AGENT_UNAVAILABLE', retryable: true });
    expect((down as Error).message).toContain('upstream connect error');
  });

  it('maps other 4xx to AGENT_REQUEST_REJECTED (not retryable)', async () => {
    const error = await agent(fakeFetch(400, { error: { message: "model 'gpt-test' does not exist" } }).fetch)
      .ask({ prompt: 'x', model: MODEL })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'AGENT_REQUEST_REJECTED', retryable: false });
  });

  it('rejects a 200 without a message or with a body that is not JSON as AGENT_BAD_RESPONSE', async () => {
    for (const body of [{ choices: [] }, { choices: [{ message: { content: '' } }] }, '<html>proxy</html>']) {
      await expect(agent(fakeFetch(200, body).fetch).ask({ prompt: 'x', model: MODEL })).rejects.toMatchObject({ code: 'AGENT_BAD_RESPONSE' });
    }
  });

  it('maps a network failure to a retryable AGENT_UNREACHABLE', async () => {
    const failing: AgentFetch = async () => {
      throw new TypeError('fetch failed');
    };
    await expect(agent(failing).ask({ prompt: 'x', model: MODEL })).rejects.toMatchObject({ code: 'AGENT_UNREACHABLE', retryable: true });
  });

  it('gives up after the timeout with a retryable AGENT_TIMEOUT, and reports a cancelled request as AGENT_CANCELLED', async () => {
    const hanging: AgentFetch = (_url, init) =>
      new Promise((_resolve, reject) => init.signal.addEventListener('abort', () => reject(init.signal.reason), { once: true }));
    await expect(agent(hanging, { timeoutMs: 20 }).ask({ prompt: 'x', model: MODEL })).rejects.toMatchObject({ code: 'AGENT_TIMEOUT', retryable: true });
    const controller = new AbortController();
    const pending = agent(hanging).ask({ prompt: 'x', model: MODEL, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'AGENT_CANCELLED' });
  });

  it('refuses a base URL that is not http(s)', () => {
    expect(() => new OpenAiCompatibleAgent({ baseUrl: 'file:///etc/passwd', apiKey: 'k', model: 'm' })).toThrow(/not an http/);
  });
});
