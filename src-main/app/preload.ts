// Sandboxed preload (built as CommonJS): exposes the allowlisted bridge and nothing else.
import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from './bridge';

contextBridge.exposeInMainWorld('drydock', createBridge(ipcRenderer));
