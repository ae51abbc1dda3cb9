import { rmSync } from 'node:fs';
import type { ServiceOptions } from '../../src-main/service';
import { writeProject } from './project-dir';
import { startTestService, type TestService } from './service';

/** Makes new deployments start with `files` as their model (the sample project of the first commit); returns its folder. */
export function useModelAsSampleProject(files: Record<string, string>, prefix = 'drydock-sample-'): string {
  const dir = writeProject(files, prefix);
  process.env.DRYDOCK_SAMPLE_PROJECT = dir;
  return dir;
}

/** A test service whose new deployments start with its sample project (`sampleDir`). */
export type SampleProjectService = TestService & { sampleDir: string };

/**
 * Starts a test service whose new deployments start with `files` as their sample project; its
 * `stop` also removes the sample project folder.
 */
export async function startSampleProjectService(files: Record<string, string>, options: Partial<ServiceOptions> = {}, prefix?: string): Promise<SampleProjectService> {
  const sampleDir = useModelAsSampleProject(files, prefix);
  const svc = await startTestService(options);
  return {
    ...svc,
    sampleDir,
    stop: async () => {
      await svc.stop();
      rmSync(sampleDir, { recursive: true, force: true });
    },
  };
}
