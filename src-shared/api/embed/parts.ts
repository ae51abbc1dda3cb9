// What the embedding modules share and the contract does not export: the two tags, group name and description.
import { Type } from 'typebox';
import { Nullable } from '../contract';

export const T = 'Embed Tenants';
export const E = 'Embed';
export const GroupName = Type.String({ minLength: 1, maxLength: 255 });
export const GroupDescription = Nullable(Type.String({ maxLength: 2000 }));
