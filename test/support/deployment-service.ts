import { afterAll, beforeAll } from 'vitest';
import { createDeployment } from './deployments';
import { startTestService, type TestService } from './service';

/*
 * The set-up of the API tests that work inside one deployment: a test service with one deployment.
 * `svc` and `dep` are live bindings: they hold the file's service and deployment id once
 * `useServiceWithDeployment()`'s `beforeAll` has run (a test file's own `beforeAll`s, registered
 * after the call, run after it and may use them).
 */

export let svc: TestService;
export let dep: number;

/** Starts the file's service and creates its deployment before its tests; stops the service after. */
export function useServiceWithDeployment(): void {
  beforeAll(async () => {
    svc = await startTestService();
    dep = await createDeployment(svc);
  });
  afterAll(async () => svc.stop());
}
