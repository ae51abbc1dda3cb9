import { describe, expect, it } from 'vitest';
import type { RouteDef } from '../../src-shared/api/contract';
import { AreaLoader, type Area } from '../../src-main/features/areas';
import type { Router } from '../../src-main/http/route';

const def = { operationId: 'getThing', method: 'GET', path: '/api/v1/things/{id}' } as unknown as RouteDef;

/** The part of the router an area's load uses: what was registered, by operation id. */
function routerRecording() {
  const registered = new Set<string>();
  const router = { unregistered: (ids: readonly string[]) => ids.filter((id) => !registered.has(id)) } as unknown as Router;
  return { router, register: (id: string) => registered.add(id) };
}

describe('loading an area on first use', () => {
  it('tries again on the next request when the area’s code failed to import, instead of failing every later request', async () => {
    const { router, register } = routerRecording();
    let imports = 0;
    const area: Area = {
      name: 'things',
      operations: [def],
      load: async () => {
        imports++;
        if (imports === 1) throw new Error('EMFILE: too many open files');
        return () => void register('getThing');
      },
    };
    const loaded: string[] = [];
    const loader = new AreaLoader(router, [area], (a) => loaded.push(a.name));

    await expect(loader.ensure(area)).rejects.toThrow('EMFILE');
    await loader.ensure(area);
    await loader.ensure(area);
    expect(imports).toBe(2);
    expect(loaded).toEqual(['things']);
  });

  it('keeps an area whose registration failed part way failed: registering it again would register its operations twice', async () => {
    const { router } = routerRecording();
    let registrations = 0;
    const area: Area = {
      name: 'things',
      operations: [def],
      load: async () => () => {
        registrations++;
        throw new Error('a schema that does not compile');
      },
    };
    const loader = new AreaLoader(router, [area], () => {});

    await expect(loader.ensure(area)).rejects.toThrow('does not compile');
    await expect(loader.ensure(area)).rejects.toThrow('does not compile');
    expect(registrations).toBe(1);
  });

  it('loads the other areas in the background when one fails, and reports the one that failed', async () => {
    const { router, register } = routerRecording();
    const area = (name: string, fails: boolean): Area => ({
      name,
      operations: [{ ...def, operationId: name } as RouteDef],
      load: async () => {
        if (fails) throw new Error(`${name} is broken`);
        return () => void register(name);
      },
    });
    const loaded: string[] = [];
    const failed: string[] = [];
    const loader = new AreaLoader(router, [area('first', false), area('broken', true), area('last', false)], (a) => loaded.push(a.name));

    await loader.loadRestInBackground(0, (a, error) => failed.push(`${a.name}: ${error.message}`));
    expect(loaded).toEqual(['first', 'last']);
    expect(failed).toEqual(['broken: broken is broken']);
  });
});
