import { LocalAgentEmulator, OpenAiCompatibleAgent, type AgentConnector } from '../../connectors/agent';
import type { ServiceContext } from '../../context';
import { JobFailure } from '../../platform/jobs';

/** Key of the agent endpoint's API key in the SecretStore. */
export const AGENT_API_KEY_SECRET = 'agent:api-key';

const isConnector = (value: unknown): value is AgentConnector =>
  typeof value === 'object' && value !== null && typeof (value as AgentConnector).ask === 'function';

/**
 * The agent runs talk to: one the composition root (or a test) put in `ctx.services.agent`; else
 * an OpenAI-compatible endpoint when `DRYDOCK_AGENT_BASE_URL` is set (model
 * `DRYDOCK_AGENT_MODEL`, key from the SecretStore under `agent:api-key` or
 * `DRYDOCK_AGENT_API_KEY`); else the local emulator, which answers from the model's metadata.
 */
export async function agentFor(ctx: ServiceContext): Promise<AgentConnector> {
  if (isConnector(ctx.services.agent)) return ctx.services.agent;
  const baseUrl = process.env.DRYDOCK_AGENT_BASE_URL;
  if (!baseUrl) return new LocalAgentEmulator();
  const apiKey = (await ctx.secrets.get(AGENT_API_KEY_SECRET)) ?? process.env.DRYDOCK_AGENT_API_KEY ?? null;
  if (!apiKey) {
    throw new JobFailure('AGENT_NOT_CONFIGURED', `DRYDOCK_AGENT_BASE_URL is set but no API key is stored (secret "${AGENT_API_KEY_SECRET}" or DRYDOCK_AGENT_API_KEY).`, {
      status: 503,
    });
  }
  return new OpenAiCompatibleAgent({ baseUrl, apiKey, model: process.env.DRYDOCK_AGENT_MODEL ?? 'gpt-4o-mini' });
}
