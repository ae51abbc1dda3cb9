/**
 * "dev · alice": marks an object that is a dev copy — written from a user's dev branch to their
 * per-user schema or name prefix — so nobody mistakes it for the production object.
 */
export function DevLabel({ userTag }: { userTag: string }) {
  const user = userTag.toLowerCase();
  return (
    <span className="dev-label" title={`A dev copy from ${user}’s dev branch, not the production object`} aria-label={`dev copy of ${user}`}>
      dev · {user}
    </span>
  );
}
