import { placeDevTarget } from '../../../../../src-shared/api/dev-targets';
import { resolvedName, warehouseIdentifier } from '../../../../../src-shared/model/generate/semantic-view-ddl';
import { useDevTarget } from '../data';
import { TargetNames } from '../TargetNames';

/**
 * What a push will create, before it starts: `DATABASE.SCHEMA.NAME` per selected view. From a
 * user's dev branch that is the owner's per-user schema or name prefix (the deployment's dev
 * target rule), never the production objects, and the dialog says so.
 */
export function PushTarget({
  deploymentId,
  branch,
  database,
  schema,
  prefix,
  viewNames,
}: {
  deploymentId: number;
  branch: string;
  database: string | null;
  schema: string;
  prefix: string;
  viewNames: string[];
}) {
  const target = useDevTarget(deploymentId, branch);
  if (!target.data || target.data.branchName !== branch || schema === '') return null;
  const dev = target.data.isDevBranch && target.data.userTag ? target.data : null;
  const placed = dev ? placeDevTarget(dev.rule, dev.userTag!, { schema, prefix }) : { schema, prefix };
  const names = viewNames.map((view) => `${database ?? '<database>'}.${placed.schema}.${resolvedName(warehouseIdentifier(`${placed.prefix}${view}`), false)}`);
  return (
    <div className={`notice sy-push-target${dev ? ' sy-push-target-dev' : ''}`} role="region" aria-label="Push target">
      {dev && (
        <p>
          <strong>Dev branch</strong> of <code>{dev.userTag}</code>: the push goes to your own{' '}
          {dev.rule.mode === 'schema-suffix' ? (
            <>
              schema <code>{placed.schema}</code> (created if missing)
            </>
          ) : (
            <>
              names prefixed <code>{placed.prefix}</code> in <code>{placed.schema}</code>
            </>
          )}
          , never over the production views in <code>{schema}</code>.
        </p>
      )}
      {names.length === 0 ? (
        <p className="muted">Choose views to see the semantic views the push will create.</p>
      ) : (
        <TargetNames verb="Will create" names={names} />
      )}
    </div>
  );
}
