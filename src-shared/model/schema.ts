// Stage 2: normalize one raw definition into typed records, with every check that needs only that definition:
// unknown/missing properties, value types, identifiers, member types, relationships, rolling windows,
// granularities, members not a list, duplicate members and joins within the definition.
//
// The work is split under `normalize/`: the records (`defs.ts`), the accepted keys and enums
// (`keys.ts`), the reading context (`context.ts`), and one reader module each for the whole
// definition (`entities.ts`), members (`members.ts`), joins, pre-aggregations and access policies
// (`entity-parts.ts`) and view cube entries and folders (`view-parts.ts`). This module is the
// entry point the compiler and the checks import.

export { IDENTIFIER, type CubeDef, type EntityCommon, type EntityDef, type FolderDef, type ViewCubeDef, type ViewDef, type ViewGroupDef } from './normalize/defs';
export { plain } from './normalize/context';
export { normalizeEntity } from './normalize/entities';
