import type { ReactNode } from 'react';
import { reasonHelp } from './reasons';

/**
 * "Why, and what to do" under an analyzer finding: a disclosure with the plain explanation and,
 * when the screen can offer one, an action (open the file in Models…).
 */
export function ReasonHelp({ code, action }: { code: string | null | undefined; action?: ReactNode }) {
  const help = reasonHelp(code);
  if (!help) return null;
  return (
    <details className="reason-help">
      <summary>Why, and what to do</summary>
      <p>{help.why}</p>
      <p>{help.fix}</p>
      {action && <div className="reason-help-action">{action}</div>}
    </details>
  );
}
