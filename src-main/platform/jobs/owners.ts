/**
 * Who holds a lease, precisely enough to tell after a crash that the holder is gone: the owner id
 * names the host, the process id and the machine's boot. A restarted service then takes up the
 * jobs of its dead predecessor at once instead of waiting out their leases.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname, uptime } from 'node:os';

/** What a running job shows (as its progress stage) between its worker's death and its resumption. */
export const WORKER_LOST_STAGE = 'worker lost, resuming';
/** What it shows once another worker took it up, until the handler reports its own progress. */
export const RESUMED_STAGE = 'resumed after a lost worker';

let cachedBootId: string | null = null;

/** This machine's boot: Linux's random boot id, else the boot minute (uptime is not exact). */
export function currentBootId(): string {
  if (cachedBootId !== null) return cachedBootId;
  try {
    cachedBootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().replace(/[^0-9a-f-]/gi, '');
  } catch {
    cachedBootId = '';
  }
  if (!cachedBootId) cachedBootId = `t${Math.round((Date.now() / 1000 - uptime()) / 60)}`;
  return cachedBootId;
}

/** The owner ids this process handed out: an id with our pid that is not among them belongs to a dead predecessor (pid reuse, e.g. pid 1 in a container). */
const ownIds = new Set<string>();

/** `w1:<pid>:<boot>:<random>@<host>` — the lease owner of this process's runner. */
export function newOwnerId(): string {
  const id = `w1:${process.pid}:${currentBootId()}:${randomUUID().slice(0, 8)}@${hostname()}`;
  ownIds.add(id);
  return id;
}

interface OwnerParts {
  pid: number;
  boot: string;
  host: string;
}

const OWNER_ID = /^w1:(\d+):([^:@]+):[^@]+@(.*)$/;

function parseOwner(owner: string): OwnerParts | null {
  const match = OWNER_ID.exec(owner);
  return match ? { pid: Number(match[1]), boot: match[2]!, host: match[3]! } : null;
}

/**
 * True only when the owner certainly ended: a process of this host that ran before the last boot,
 * whose pid no longer exists, or that had our pid before us. Unknown owners (another host, an
 * old-style id, a pid now used by another process, this very process) are not known dead: their leases lapse as usual.
 */
export function isOwnerKnownDead(owner: string): boolean {
  const parts = parseOwner(owner);
  if (!parts || parts.host !== hostname()) return false;
  if (parts.boot !== currentBootId()) return true;
  if (parts.pid === process.pid) return !ownIds.has(owner);
  try {
    process.kill(parts.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
