// Setup file of the API tests that share worker processes (vitest.config.ts, issue 25): the
// environment variables a file sets (a sample project, lowered limits) end with the file, as they
// would with a process of its own, so the next file's services start from the same environment.
import { afterAll } from 'vitest';

const before = { ...process.env };

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in before)) delete process.env[name];
  Object.assign(process.env, before);
});
