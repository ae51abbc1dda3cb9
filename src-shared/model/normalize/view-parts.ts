// Readers of what only views have: the `cubes` entries (join_path, prefix, split, alias,
// includes with per-member overrides, excludes) and the `folders` tree (nested folders allowed).

import { DiagnosticCodes as C } from '../codes';
import type {
  RawEntry,
  RawMap,
  RawNode,
  SourceLocation,
  ViewCubeInclude,
} from '../types';
import { hasOpaque, plain, type Ctx } from './context';
import type { FolderDef, ViewCubeDef } from './defs';
import { FOLDER_KEYS, INCLUDE_KEYS, VIEW_CUBE_KEYS } from './keys';

export function readViewCubes(entry: RawEntry, ctx: Ctx, what: string, viewName: string): ViewCubeDef[] {
  const out: ViewCubeDef[] = [];
  const itemMessage = `Each item of 'cubes' in ${what} must be a map with join_path and includes`;
  for (const item of ctx.mapList(entry, C.MEMBERS_NOT_LIST, `'cubes' of ${what} must be a list`, itemMessage, viewName)) {
    const f = ctx.fields(item, VIEW_CUBE_KEYS, `a cube entry of ${what}`, viewName);
    const jp = f.get('join_path');
    const path = ctx.string(jp, what, viewName);
    if (!jp) {
      ctx.error(C.MISSING_PROPERTY, `A cube entry of ${what} has no 'join_path'`, item, viewName);
      continue;
    }
    if (path === undefined) continue;
    const joinPath = path.replace(/^\{|\}$/g, '').trim().split('.');
    const prefix = ctx.boolean(f.get('prefix'), what, viewName) ?? false;
    const split = ctx.boolean(f.get('split'), what, viewName) ?? false;
    if (prefix && split) ctx.error(C.VIEW_SPLIT_WITH_PREFIX, `Cube entry '${path}' of ${what} uses split together with prefix, which is not supported`, f.get('split')!, viewName);
    const cube: ViewCubeDef = {
      joinPath,
      joinPathLoc: ctx.loc(jp.value),
      alias: ctx.identifier(f.get('alias'), what, viewName),
      prefix,
      split,
      includes: [],
      excludes: [],
      loc: ctx.loc(item),
      dynamic: ctx.mayBeOpaque && hasOpaque(f),
    };
    const inc = f.get('includes');
    if (!inc) ctx.error(C.MISSING_PROPERTY, `Cube entry '${path}' of ${what} has no 'includes'`, item, viewName);
    else if (inc.value.kind === 'scalar' && inc.value.value === '*') cube.includes = '*';
    else if (inc.value.kind === 'seq') {
      const includes: ViewCubeInclude[] = [];
      for (const it of inc.value.items) {
        if (ctx.isOpaque(it)) continue;
        if (it.kind === 'scalar' && typeof it.value === 'string') includes.push({ name: it.value, loc: ctx.loc(it) });
        else if (it.kind === 'map') {
          const iw = `an include of ${what}`;
          const inf = ctx.fields(it, INCLUDE_KEYS, iw, viewName);
          const name = ctx.string(inf.get('name'), iw, viewName);
          if (name === undefined) {
            if (!inf.has('name')) ctx.error(C.MISSING_PROPERTY, `An include of ${what} has no 'name'`, it, viewName);
            continue;
          }
          includes.push({
            name,
            alias: ctx.identifier(inf.get('alias'), iw, viewName),
            title: ctx.text(inf.get('title'), iw, viewName),
            description: ctx.text(inf.get('description'), iw, viewName),
            format: inf.has('format') ? plain(inf.get('format')!.value) : undefined,
            meta: inf.has('meta') ? plain(inf.get('meta')!.value) : undefined,
            loc: ctx.loc(inf.get('name')!.value),
          });
        } else ctx.error(C.INVALID_VALUE, `Each include of ${what} must be a member name or a map with name`, it, viewName);
      }
      cube.includes = includes;
    } else if (!ctx.isOpaque(inc.value)) {
      ctx.error(C.INVALID_VALUE, `'includes' of ${what} must be "*" or a list of members`, inc.value, viewName);
    }
    const exc = f.get('excludes');
    if (exc && exc.value.kind === 'seq') {
      for (const it of exc.value.items) {
        if (it.kind === 'scalar' && typeof it.value === 'string') cube.excludes.push({ name: it.value, loc: ctx.loc(it) });
        else if (!ctx.isOpaque(it)) ctx.error(C.INVALID_VALUE, `'excludes' of ${what} must be a list of member names`, it, viewName);
      }
    } else if (exc && !ctx.isOpaque(exc.value)) {
      ctx.error(C.INVALID_VALUE, `'excludes' of ${what} must be a list of member names`, exc.value, viewName);
    }
    out.push(cube);
  }
  return out;
}

export function readFolders(node: RawNode, ctx: Ctx, what: string, viewName: string): FolderDef[] {
  if (ctx.isOpaque(node)) return [];
  if (node.kind !== 'seq') {
    ctx.error(C.INVALID_VALUE, `'folders' of ${what} must be a list`, node, viewName);
    return [];
  }
  const out: FolderDef[] = [];
  for (const item of node.items) {
    if (ctx.isOpaque(item)) continue;
    if (item.kind !== 'map') {
      ctx.error(C.INVALID_VALUE, `Each folder of ${what} must be a map with name and includes`, item, viewName);
      continue;
    }
    const folder = readFolder(item, ctx, what, viewName);
    if (folder) out.push(folder);
  }
  return out;
}

function readFolder(map: RawMap, ctx: Ctx, what: string, viewName: string): FolderDef | null {
  const fw = `a folder of ${what}`;
  const f = ctx.fields(map, FOLDER_KEYS, fw, viewName);
  const name = ctx.string(f.get('name'), fw, viewName);
  if (name === undefined) {
    if (!f.has('name')) ctx.error(C.MISSING_PROPERTY, `A folder of ${what} has no 'name'`, map, viewName);
    return null;
  }
  const folder: FolderDef = { name, loc: ctx.loc(f.get('name')!.value), includes: [] };
  const inc = f.get('includes');
  if (!inc) ctx.error(C.MISSING_PROPERTY, `Folder '${name}' of ${what} has no 'includes'`, map, viewName);
  else if (inc.value.kind === 'scalar' && inc.value.value === '*') folder.includes = '*';
  else if (inc.value.kind === 'seq') {
    const items: (FolderDef | { name: string; loc: SourceLocation })[] = [];
    for (const it of inc.value.items) {
      if (ctx.isOpaque(it)) continue;
      if (it.kind === 'scalar' && typeof it.value === 'string') items.push({ name: it.value, loc: ctx.loc(it) });
      else if (it.kind === 'map') {
        const nested = readFolder(it, ctx, what, viewName);
        if (nested) items.push(nested);
      } else ctx.error(C.INVALID_VALUE, `Folder '${name}' of ${what} must include member names or folders`, it, viewName);
    }
    folder.includes = items;
  } else if (!ctx.isOpaque(inc.value)) {
    ctx.error(C.INVALID_VALUE, `'includes' of folder '${name}' in ${what} must be "*" or a list`, inc.value, viewName);
  }
  return folder;
}
