import { homedir } from 'node:os';
import { join } from 'node:path';

/** The same folder Electron's app.getPath('userData') gives the desktop app, plus /data. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const home = homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'drydock', 'data');
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'drydock', 'data');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'drydock', 'data');
}
