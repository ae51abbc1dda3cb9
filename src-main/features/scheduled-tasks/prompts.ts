// The prompts of a deployment's scheduled tasks, for what reads the model from outside (change
// review, issue 26). A task is its owner's: others see it only as an admin.
import type { ServiceContext } from '../../context';

export interface TaskPrompt {
  taskId: string;
  name: string;
  prompt: string;
  enabled: boolean;
}

export function scheduledTaskPrompts(ctx: ServiceContext, deploymentId: number, viewer: { userId: number | null; admin: boolean }): TaskPrompt[] {
  const rows = ctx.db.prepare('SELECT id, user_id, name, prompt, enabled FROM scheduled_tasks WHERE deployment_id = ? ORDER BY seq').all(deploymentId) as {
    id: string;
    user_id: number;
    name: string;
    prompt: string;
    enabled: number;
  }[];
  return rows.filter((r) => viewer.admin || r.user_id === viewer.userId).map((r) => ({ taskId: r.id, name: r.name, prompt: r.prompt, enabled: r.enabled === 1 }));
}
