import { useEffect, useState } from 'react';
import './workbooks.css';

/** Copies text with the Clipboard API, falling back to a selection copy where it is refused. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    try {
      return document.execCommand('copy');
    } finally {
      area.remove();
    }
  }
}

/** A content hash shortened to its first characters; the full value in the tooltip and on copy. */
export function HashChip({ hash, label = 'hash', length = 12 }: { hash: string | null | undefined; label?: string; length?: number }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), 1600);
    return () => clearTimeout(timer);
  }, [copied]);
  if (!hash) return <span className="muted">none</span>;
  return (
    <span className="hash">
      <code title={hash} data-hash={hash}>
        {hash.slice(0, length)}…
      </code>
      <button type="button" className="icon-button" aria-label={`Copy ${label}`} title={`Copy the full ${label}`} onClick={() => void copyText(hash).then((ok) => setCopied(ok ? 'yes' : 'no'))}>
        <svg width="12" height="12" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path fill="currentColor" d="M8 3h11a2 2 0 0 1 2 2v11h-2V5H8V3Zm-3 4h10a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V9a2 2 0 0 1 2-2Zm0 2v10h10V9H5Z" />
        </svg>
      </button>
      {copied && (
        <span className="hash-copied" role="status">
          {copied === 'yes' ? 'copied' : 'copy refused'}
        </span>
      )}
    </span>
  );
}
