import { useCallback, useState } from 'react';
import type { ScreenProps } from '../../app/screen-props';
import { EmptyState, ProblemBanner, Spinner } from '../../lib/ui';
import { TabBar } from '../../lib/tabs';
import { AppLink, idOf } from '../workbooks/links';
import { RemoteModelPublish } from './RemoteModelPublish';
import { RemoteTransferHistory } from './RemoteTransferHistory';
import { RemoteWorkbookPromotion } from './RemoteWorkbookPromotion';
import { useDeploymentsOf, useProfileList } from './remote';
import './promotions.css';
import './remote-transfers.css';

const BASE = '/promotions/profiles';

/**
 * `/promotions/profiles[/workbook[/:deploymentId[/:workbookId]] | /model]`: send work from this
 * computer to another profile's service. Always the local service's screen, whatever the header
 * shows: the local service runs the transfer with the profile's credential from its keychain.
 */
export default function RemoteTransfersScreen({ subpath }: ScreenProps) {
  const tab = subpath[0] === 'model' ? 'model' : 'workbook';
  const profiles = useProfileList();
  const deployments = useDeploymentsOf(null);
  const [version, setVersion] = useState(0);
  const [highlight, setHighlight] = useState<string | null>(null);
  const refresh = useCallback(() => setVersion((v) => v + 1), []);
  const started = useCallback(
    (id: string) => {
      setHighlight(id);
      refresh();
    },
    [refresh],
  );
  const usable = (profiles.data ?? []).filter((p) => p.hasCredential);

  return (
    <section className="page" aria-label="To other profiles">
      <header className="page-head">
        <div>
          <h1>To other profiles</h1>
          <p className="muted promo-lede">
            Promote a workbook, or publish a model branch, from this computer to a deployment of another Drydock or of your platform tenant. Preview first; nothing is written there
            until you confirm, and a failure part-way is undone.
          </p>
        </div>
        <AppLink to="/profiles" className="btn btn-default">
          Manage profiles
        </AppLink>
      </header>
      <TabBar
        className="promo-side-tabs transfer-tabs"
        label="What to send"
        current={tab}
        tabs={[
          { id: 'workbook', title: 'Workbook', href: `${BASE}/workbook` },
          { id: 'model', title: 'Model branch', href: `${BASE}/model` },
        ]}
      />
      <ProblemBanner error={profiles.error ?? deployments.error} />
      {!profiles.data || !deployments.data ? (
        <Spinner label="Loading profiles…" />
      ) : deployments.data.length === 0 ? (
        <EmptyState title="No deployments on this computer">
          <AppLink to="/deployments">Create a deployment</AppLink> first.
        </EmptyState>
      ) : tab === 'workbook' ? (
        <RemoteWorkbookPromotion
          key="workbook"
          profiles={usable}
          deployments={deployments.data}
          initial={{ deploymentId: idOf(subpath[1]), workbookId: idOf(subpath[2]) }}
          onStarted={started}
          onEnded={refresh}
        />
      ) : (
        <RemoteModelPublish key="model" profiles={usable} deployments={deployments.data} onStarted={started} onEnded={refresh} />
      )}
      <RemoteTransferHistory
        kind={tab === 'workbook' ? 'workbook-promotion' : 'model-publish'}
        deployments={deployments.data}
        version={version}
        highlightId={highlight}
        onChanged={refresh}
      />
    </section>
  );
}
