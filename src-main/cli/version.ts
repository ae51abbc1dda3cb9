// Drydock's version, from package.json (inlined by the build).
import { version } from '../../package.json';

export const DRYDOCK_VERSION: string = version;
