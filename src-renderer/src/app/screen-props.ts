/**
 * What the shell hands every screen. Its own module so that the screens and the registry that
 * lazy-loads them (screens.ts) never import each other.
 */
export interface ScreenProps {
  /** Path segments below the screen's own path (`/deployments/3/env` → `['3', 'env']`). */
  subpath: string[];
}
