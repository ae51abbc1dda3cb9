// Paths of the syncs screens, and the in-app link they are followed by.
export * from './paths';
export { AppLink } from '../../lib/AppLink';
