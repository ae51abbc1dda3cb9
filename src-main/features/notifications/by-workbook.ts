// The notifications of a deployment with the workbook each delivers, for what reads the model from
// outside (change review, issue 26).
import type { ServiceContext } from '../../context';

export interface WorkbookNotification {
  notificationId: number;
  name: string;
  workbookId: number;
  enabled: boolean;
}

export function notificationsByWorkbook(ctx: ServiceContext, deploymentId: number): WorkbookNotification[] {
  const rows = ctx.db.prepare('SELECT id, name, workbook_id, enabled FROM notifications WHERE deployment_id = ? ORDER BY id').all(deploymentId) as {
    id: number;
    name: string;
    workbook_id: number;
    enabled: number;
  }[];
  return rows.map((r) => ({ notificationId: r.id, name: r.name, workbookId: r.workbook_id, enabled: r.enabled === 1 }));
}
