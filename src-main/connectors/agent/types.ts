/**
 * The deployment's agent: answers a prompt about the deployment's data model. Real deployments talk
 * to an LLM behind an OpenAI-compatible endpoint; offline, a deterministic local emulator answers
 * from the compiled model's metadata.
 */

export type AgentMemberKind = 'dimension' | 'measure' | 'segment';

export interface AgentMember {
  name: string;
  kind: AgentMemberKind;
  /** Dimension or measure type (`string`, `time`, `sum`…). */
  type?: string;
  title?: string;
  description?: string;
}

/** A cube or a view of the model, as much of it as the agent needs (public members only). */
export interface AgentEntity {
  kind: 'cube' | 'view';
  name: string;
  title?: string;
  description?: string;
  members: AgentMember[];
}

/** What the agent knows of the deployment's data model. */
export interface AgentModelContext {
  deploymentId: number;
  /** Branch and commit the metadata was compiled from. */
  branch: string;
  commit: string | null;
  views: AgentEntity[];
  cubes: AgentEntity[];
}

export interface AgentRequest {
  prompt: string;
  model: AgentModelContext;
  signal?: AbortSignal;
}

export interface AgentReference {
  kind: 'cube' | 'view';
  name: string;
  /** Members of the entity the answer refers to. */
  members: string[];
}

export interface AgentReply {
  content: string;
  /** Which agent answered (`local-emulator`, or the endpoint's model name). */
  agent: string;
  references: AgentReference[];
  usage: { promptTokens: number; completionTokens: number } | null;
}

export interface AgentConnector {
  readonly name: string;
  ask(request: AgentRequest): Promise<AgentReply>;
}

export const AgentErrorCodes = {
  AGENT_UNAUTHORIZED: 'AGENT_UNAUTHORIZED',
  AGENT_RATE_LIMITED: 'AGENT_RATE_LIMITED',
  AGENT_UNAVAILABLE: 'AGENT_UNAVAILABLE',
  AGENT_UNREACHABLE: 'AGENT_UNREACHABLE',
  AGENT_TIMEOUT: 'AGENT_TIMEOUT',
  AGENT_REQUEST_REJECTED: 'AGENT_REQUEST_REJECTED',
  AGENT_BAD_RESPONSE: 'AGENT_BAD_RESPONSE',
  AGENT_CANCELLED: 'AGENT_CANCELLED',
} as const;
export type AgentErrorCode = (typeof AgentErrorCodes)[keyof typeof AgentErrorCodes];

/** A failure of the agent; `retryable` ones (rate limits, outages, timeouts) may succeed later. */
export class AgentError extends Error {
  constructor(
    readonly code: AgentErrorCode,
    message: string,
    readonly options: { status?: number; retryable?: boolean; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AgentError';
  }
  get retryable(): boolean {
    return this.options.retryable === true;
  }
}
