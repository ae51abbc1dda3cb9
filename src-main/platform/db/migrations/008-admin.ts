import type { Migration } from './types';

/** Slot for the account-level admin areas' tables (filled by that area). */
export const admin: Migration = {
  version: 8,
  name: 'admin',
  up: ``,
};
