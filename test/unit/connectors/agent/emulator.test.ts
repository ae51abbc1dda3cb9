import { describe, expect, it } from 'vitest';
import { compileModel } from '../../../../src-shared/model';
import { LocalAgentEmulator, modelContextFrom, wordsOf } from '../../../../src-main/connectors/agent';

const MODEL = `
cubes:
  - name: orders
    sql_table: public.orders
    description: Every order placed in the web shop
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: status, sql: status, type: string, description: Fulfilment state }
      - { name: created_at, sql: created_at, type: time }
    measures:
      - { name: count, type: count }
      - { name: revenue, sql: amount, type: sum, description: Gross revenue in dollars }
  - name: customers
    sql_table: public.customers
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: country, sql: country, type: string }
      - { name: secret_score, sql: score, type: number, public: false }
    measures:
      - { name: count, type: count }
  - name: internal_audit
    sql_table: audit.log
    public: false
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
views:
  - name: sales
    title: Sales
    description: Orders with their revenue
    cubes:
      - join_path: orders
        includes: [status, created_at, count, revenue]
`;

const context = () =>
  modelContextFrom(compileModel([{ path: 'model/model.yml', content: MODEL }]).model, { deploymentId: 1, branch: 'main', commit: 'abc' });

describe('local agent emulator', () => {
  it('sees only public cubes, views and members of the compiled model', () => {
    const ctx = context();
    expect(ctx.cubes.map((c) => c.name)).toEqual(['customers', 'orders']);
    expect(ctx.views.map((v) => v.name)).toEqual(['sales']);
    expect(ctx.cubes[0].members.map((m) => m.name)).toEqual(['id', 'country', 'count']);
  });

  it('answers with the views and cubes relevant to the prompt and the members it names', async () => {
    const reply = await new LocalAgentEmulator().ask({ prompt: 'What was the revenue by status last week?', model: context() });
    expect(reply.agent).toBe('local-emulator');
    // `sales` (view, named members revenue and status) ranks before the `orders` cube.
    expect(reply.references.map((r) => `${r.kind}:${r.name}`)).toEqual(['view:sales', 'cube:orders']);
    expect(reply.references[0].members.sort()).toEqual(['revenue', 'status']);
    expect(reply.content.indexOf('`sales`')).toBeLessThan(reply.content.indexOf('`orders`'));
    expect(reply.content).toContain('`sales.revenue`');
    expect(reply.content).not.toContain('customers');
  });

  it('is deterministic: the same prompt and model give the same answer', async () => {
    const agent = new LocalAgentEmulator();
    const a = await agent.ask({ prompt: 'customers by country', model: context() });
    const b = await agent.ask({ prompt: 'customers by country', model: context() });
    expect(a).toEqual(b);
    expect(a.references[0]).toEqual({ kind: 'cube', name: 'customers', members: ['country'] });
    expect(a.content).not.toContain('secret_score');
  });

  it('says so when nothing in the model matches the prompt, and points at what exists', async () => {
    const reply = await new LocalAgentEmulator().ask({ prompt: 'weather forecast for tomorrow', model: context() });
    expect(reply.references).toEqual([]);
    expect(reply.content).toContain('Nothing in the data model matches');
    expect(reply.content).toContain('`sales`');
  });

  it('answers an empty model without inventing anything', async () => {
    const empty = modelContextFrom(compileModel([]).model, { deploymentId: 1, branch: 'main', commit: null });
    const reply = await new LocalAgentEmulator().ask({ prompt: 'revenue', model: empty });
    expect(reply.references).toEqual([]);
    expect(reply.content).toContain('no public views or cubes');
  });

  it('refuses an already cancelled request', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(new LocalAgentEmulator().ask({ prompt: 'revenue', model: context(), signal: controller.signal })).rejects.toMatchObject({
      code: 'AGENT_CANCELLED',
    });
  });

  it('splits identifiers and folds plurals when matching words', () => {
    expect(wordsOf('orderStatus created_at')).toEqual(['order', 'status', 'created']);
    expect(wordsOf('How many Orders per categories?')).toEqual(['many', 'order', 'category']);
  });
});
