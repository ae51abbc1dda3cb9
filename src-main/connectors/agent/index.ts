export * from './types';
export { LocalAgentEmulator, wordsOf } from './emulator';
export { OpenAiCompatibleAgent, SYSTEM_PROMPT, type AgentFetch, type OpenAiCompatibleAgentOptions } from './openai';
export { modelContextFrom, describeModel } from './model-context';
