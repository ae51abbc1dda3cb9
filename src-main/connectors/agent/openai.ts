import { describeModel } from './model-context';
import { AgentError, AgentErrorCodes, type AgentConnector, type AgentReference, type AgentReply, type AgentRequest } from './types';

/** The part of `fetch` the client uses, so tests can hand in a fake. */
export type AgentFetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string; signal: AbortSignal },
) => Promise<{ status: number; ok: boolean; headers: { get(name: string): string | null }; text(): Promise<string> }>;

export interface OpenAiCompatibleAgentOptions {
  /** Base URL of the API, e.g. `https://api.openai.com/v1` (the client appends `/chat/completions`). */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** Default: 60 s. */
  timeoutMs?: number;
  fetch?: AgentFetch;
}

interface ChatCompletion {
  model?: string;
  choices?: { message?: { role?: string; content?: string | null }; finish_reason?: string }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

export const SYSTEM_PROMPT =
  'You are the analytics agent of a semantic layer deployment. Answer the user’s question using only ' +
  'the cubes, views and members of the data model below; name the views and members to query, in backticks. ' +
  'If the model cannot answer the question, say so.';

/**
 * Client of an OpenAI-compatible chat completions endpoint (`POST {baseUrl}/chat/completions`,
 * bearer key). The model's metadata goes in the system message; the prompt is the user message.
 */
export class OpenAiCompatibleAgent implements AgentConnector {
  readonly name: string;
  private readonly fetch: AgentFetch;

  constructor(private readonly options: OpenAiCompatibleAgentOptions) {
    if (!/^https?:\/\//.test(options.baseUrl)) throw new Error(`Agent base URL "${options.baseUrl}" is not an http(s) URL.`);
    this.name = options.model;
    this.fetch = options.fetch ?? (globalThis.fetch as unknown as AgentFetch);
  }

  async ask(request: AgentRequest): Promise<AgentReply> {
    const url = `${this.options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    const body = {
      model: this.options.model,
      temperature: 0,
      messages: [
        { role: 'system', content: `${SYSTEM_PROMPT}\n\nData model (branch ${request.model.branch}):\n${describeModel(request.model)}` },
        { role: 'user', content: request.prompt },
      ],
    };
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 60_000);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    let response;
    let text: string;
    try {
      response = await this.fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.options.apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        signal,
      });
      text = await response.text();
    } catch (error) {
      if (request.signal?.aborted) throw new AgentError(AgentErrorCodes.AGENT_CANCELLED, 'The request to the agent was cancelled.', { cause: error });
      if (timeout.aborted) {
        throw new AgentError(AgentErrorCodes.AGENT_TIMEOUT, `The agent did not answer within ${this.options.timeoutMs ?? 60_000} ms.`, {
          retryable: true,
          cause: error,
        });
      }
      throw new AgentError(AgentErrorCodes.AGENT_UNREACHABLE, `The agent endpoint ${url} could not be reached: ${(error as Error).message}`, {
        retryable: true,
        cause: error,
      });
    }
    if (!response.ok) throw errorOf(response.status, text, response.headers.get('retry-after'));
    let parsed: ChatCompletion;
    try {
      parsed = JSON.parse(text) as ChatCompletion;
    } catch {
      throw new AgentError(AgentErrorCodes.AGENT_BAD_RESPONSE, `The agent answered ${response.status} with a body that is not JSON.`, { status: response.status });
    }
    const content = parsed.choices?.[0]?.message?.content;
    if (typeof content !== 'string' || content.trim() === '') {
      throw new AgentError(AgentErrorCodes.AGENT_BAD_RESPONSE, 'The agent answered without a message (no choices[0].message.content).', {
        status: response.status,
      });
    }
    return {
      content,
      agent: parsed.model ?? this.options.model,
      references: referencesIn(content, request),
      usage: parsed.usage ? { promptTokens: parsed.usage.prompt_tokens ?? 0, completionTokens: parsed.usage.completion_tokens ?? 0 } : null,
    };
  }
}

/** An error response → AgentError; the endpoint's `error.message` is kept, the key never is. */
function errorOf(status: number, text: string, retryAfter: string | null): AgentError {
  let message = text.slice(0, 500);
  try {
    const body = JSON.parse(text) as { error?: { message?: string } | string };
    const detail = typeof body.error === 'string' ? body.error : body.error?.message;
    if (detail) message = detail;
  } catch {
    // Not JSON: keep the start of the text.
  }
  const said = message ? `: ${message}` : '';
  if (status === 401 || status === 403) {
    return new AgentError(AgentErrorCodes.AGENT_UNAUTHORIZED, `The agent endpoint refused the API key (${status})${said}`, { status });
  }
  if (status === 429) {
    const seconds = retryAfter !== null ? Number(retryAfter) : NaN;
    return new AgentError(AgentErrorCodes.AGENT_RATE_LIMITED, `The agent endpoint is rate limiting requests (429)${said}`, {
      status,
      retryable: true,
      ...(Number.isFinite(seconds) && seconds >= 0 ? { retryAfterMs: seconds * 1000 } : {}),
    });
  }
  if (status >= 500) return new AgentError(AgentErrorCodes.AGENT_UNAVAILABLE, `The agent endpoint failed (${status})${said}`, { status, retryable: true });
  return new AgentError(AgentErrorCodes.AGENT_REQUEST_REJECTED, `The agent endpoint rejected the request (${status})${said}`, { status });
}

/** The views and cubes (and their members) an answer names, in the order of the model. */
function referencesIn(content: string, request: AgentRequest): AgentReference[] {
  const mentioned = (name: string) => new RegExp(`(^|[^A-Za-z0-9_])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^A-Za-z0-9_]|$)`).test(content);
  const references: AgentReference[] = [];
  for (const entity of [...request.model.views, ...request.model.cubes]) {
    const members = entity.members.filter((m) => mentioned(`${entity.name}.${m.name}`)).map((m) => m.name);
    if (members.length > 0 || mentioned(entity.name)) references.push({ kind: entity.kind, name: entity.name, members });
  }
  return references;
}
