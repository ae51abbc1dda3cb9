// The service's young generation during its start (idle memory, issue 25). Loading code makes objects
// that live as long as the process: V8 sees them survive its scavenges and grows the young
// generation from 1 MB semi-spaces towards 8 MB, and keeps it grown when the service then sits idle —
// about 6 MB of resident memory that holds nothing (`npm run bench -- start`, idle RSS). V8 reads its
// growth factor each time it would grow the space, so the growth is held at 1 while the service
// starts and V8's default comes back once every area has loaded: from then on the young generation
// grows as V8 chooses, under real work. The flag is process-wide (worker threads started meanwhile
// keep their semi-spaces at 1 MB until the release).
import { setFlagsFromString } from 'node:v8';

/** V8's default growth factor of the young generation. */
const V8_DEFAULT_GROWTH = 2;

let held = false;

/** Keeps the young generation at its size until `releaseYoungGeneration`. */
export function holdYoungGeneration(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
  held = true;
}

/** Gives the young generation back to V8's default growth (a no-op when it is not held). */
export function releaseYoungGeneration(): void {
  if (!held) return;
  held = false;
  setFlagsFromString(`--semi-space-growth-factor=${V8_DEFAULT_GROWTH}`);
}
