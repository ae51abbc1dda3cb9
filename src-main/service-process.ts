// Entry of the service process of the desktop app (see service-process-main.ts). It turns Node's
// compile cache on before anything else loads, so the service's modules compile from the cache.
import { enableCompileCache } from './platform/process/compile-cache';

enableCompileCache();
void import('./service-process-main');
