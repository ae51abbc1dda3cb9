import type { MouseEvent, ReactNode } from 'react';
import { navigate } from '../../app/router';

export type DashboardVersion = 'published' | 'draft';

export const workbooksPath = (deploymentId?: number) => (deploymentId === undefined ? '/workbooks' : `/workbooks/${deploymentId}`);
export const workbookPath = (deploymentId: number, workbookId: number, version?: DashboardVersion) =>
  `/workbooks/${deploymentId}/${workbookId}${version ? `/${version}` : ''}`;
export const editPath = (deploymentId: number, workbookId: number) => `/workbooks/${deploymentId}/${workbookId}/edit`;
export const promotionPath = (deploymentId?: number, workbookId?: number) =>
  deploymentId === undefined ? '/promotions' : workbookId === undefined ? `/promotions/${deploymentId}` : `/promotions/${deploymentId}/${workbookId}`;

/** An in-app link: a real href (new tab, copy link) that navigates without a reload on a plain click. */
export function AppLink({ to, children, className, title, ariaLabel }: { to: string; children: ReactNode; className?: string; title?: string; ariaLabel?: string }) {
  const go = (event: MouseEvent) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    navigate(to);
  };
  return (
    <a href={to} onClick={go} className={className} title={title} aria-label={ariaLabel}>
      {children}
    </a>
  );
}

/** `/x/3/4` path segment → positive integer, or null. */
export const idOf = (segment: string | undefined): number | null => (segment !== undefined && /^[1-9]\d*$/.test(segment) ? Number(segment) : null);
