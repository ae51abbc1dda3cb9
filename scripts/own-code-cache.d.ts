import type { Plugin } from 'vite';

export function ownCodeCache(): Plugin;
