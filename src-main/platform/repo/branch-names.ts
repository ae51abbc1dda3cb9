// Which branch names a repository accepts: what git accepts, safe as paths under refs/heads, and
// never mistakable for another ref.

/**
 * First components that make a short branch name read as another ref (git resolves `X` as
 * `refs/X`, `refs/tags/X`, `refs/heads/X`, `refs/remotes/X`…): a branch `refs/heads/main` or
 * `remotes/origin/main` would shadow or impersonate the real one.
 */
const REF_NAMESPACES = new Set(['refs', 'heads', 'tags', 'remotes', 'remote', 'notes', 'replace', 'stash', 'origin', 'upstream']);
/** `HEAD`, `FETCH_HEAD`, `ORIG_HEAD`, `MERGE_HEAD`, … and the other pseudo-refs git keeps beside refs/. */
const PSEUDO_REF = /^(?:[A-Z_]*HEAD|AUTO_MERGE|BISECT_[A-Z_]+)$/i;

/**
 * Why a branch name is refused, or null. Accepted: names git accepts (check-ref-format) that are
 * safe as file paths under refs/heads and cannot be mistaken for another ref — ASCII letters,
 * digits, `.`, `_`, `-`, `/`; no `..`, no `//`, no component starting with `.` or ending with
 * `.lock`, not ending with `/` or `.`; not a pseudo-ref (`HEAD`, `FETCH_HEAD`…), not starting with
 * a ref namespace (`refs/`, `heads/`, `tags/`, `remotes/`, `origin/`…), not a full object id.
 */
export function branchNameProblem(name: string): string | null {
  if (name.length === 0 || name.length > 100) return 'must have 1 to 100 characters';
  if (!/^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(name)) return 'may only use letters, digits, "-", "_", "." and "/", starting with a letter or digit';
  if (name.includes('..') || name.includes('//') || name.endsWith('/') || name.endsWith('.')) return 'may not contain ".." or "//" nor end with "/" or "."';
  const parts = name.split('/');
  if (!parts.every((part) => part.length > 0 && !part.startsWith('.') && !part.endsWith('.lock'))) {
    return 'may not have a component starting with "." or ending with ".lock"';
  }
  if (parts.some((part) => PSEUDO_REF.test(part))) return 'names a git pseudo-ref such as HEAD';
  if (REF_NAMESPACES.has(parts[0].toLowerCase())) return `starts with "${parts[0]}/", a git ref namespace, so it would read as another ref`;
  if (/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i.test(name)) return 'looks like a commit id';
  return null;
}

export const isValidBranchName = (name: string): boolean => branchNameProblem(name) === null;
