/// <reference types="vite/client" />
import type { DesktopBridge } from '../../src-shared/api/client';

declare global {
  interface Window {
    /** Present only inside the desktop shell (exposed by its preload). */
    drydock?: DesktopBridge;
  }
}
