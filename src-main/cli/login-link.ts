// `drydock login-link`: a new one-time login link for the browser UI of a running service, without
// restarting it (the one `serve` printed at start lasts ten minutes). Whoever can open the data
// dir's database owns the service already, so the link is minted there, for its admin user (or the
// user named with --email), and works with the running service that shares the database.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createLoginCode } from '../features/system/login-codes';
import { systemClock } from '../platform/clock';
import { openDatabase } from '../platform/db/connection';
import type { ServiceContext } from '../context';
import { defaultDataDir } from './data-dir';
import { PlainError } from './output';

export interface LoginLinkOptions {
  dataDir?: string;
  url?: string;
  port?: string;
  email?: string;
  json?: boolean;
}

export interface LoginLink {
  url: string;
  email: string;
  expiresInSeconds: number;
}

/** Mints the code in the data dir's database; does not need the service to be up. */
export function mintLoginLink(options: LoginLinkOptions): LoginLink {
  const dataDir = resolve(options.dataDir ?? process.env.DRYDOCK_DATA_DIR ?? defaultDataDir());
  const file = join(dataDir, 'drydock.sqlite');
  if (!existsSync(file)) throw new PlainError('NO_DATA_DIR', `No Drydock data in ${dataDir}: start it once (drydock serve) or pass --data-dir.`, 2);
  const db = openDatabase(file);
  try {
    const user = (
      options.email
        ? db.prepare('SELECT id, email FROM users WHERE email = ? AND active = 1').get(options.email)
        : db.prepare(`SELECT id, email FROM users WHERE role = 'admin' AND active = 1 ORDER BY id LIMIT 1`).get()
    ) as { id: number; email: string } | undefined;
    if (!user) throw new PlainError('USER_NOT_FOUND', options.email ? `No active user ${options.email} in ${dataDir}.` : `No active admin user in ${dataDir}.`, 1);
    const code = createLoginCode({ db, clock: systemClock } as unknown as ServiceContext, user.id);
    const base = (options.url ?? `http://127.0.0.1:${options.port ?? process.env.DRYDOCK_PORT ?? '4317'}`).replace(/\/+$/, '');
    return { url: `${base}/?login=${code}`, email: user.email, expiresInSeconds: 600 };
  } finally {
    db.close();
  }
}

export async function runLoginLink(options: LoginLinkOptions): Promise<number> {
  const link = mintLoginLink(options);
  if (options.json) console.log(JSON.stringify(link));
  else console.log(`Open Drydock in your browser as ${link.email} (one-time login link, valid 10 minutes): ${link.url}`);
  return 0;
}
