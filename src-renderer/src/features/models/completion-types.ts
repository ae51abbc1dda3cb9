// What completion offers at a position, shared by the model files' and the test files' completion.
import type { MemberKind } from './protocol';

export type SuggestionKind = 'key' | 'value' | 'cube' | 'view' | 'keyword' | MemberKind;

export interface Suggestion {
  label: string;
  kind: SuggestionKind;
  insertText: string;
  /** `insertText` is a snippet (`${1}` placeholders). */
  snippet?: boolean;
  detail?: string;
  documentation?: string;
  deprecated?: boolean;
  /** Orders suggestions: lower first. */
  sortText?: string;
}

export interface Completions {
  suggestions: Suggestion[];
  /** Column where the replaced text starts (the text typed so far ends at the cursor). */
  startColumn: number;
}
