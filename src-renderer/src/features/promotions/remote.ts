import { useEffect, useRef, useState } from 'react';
import { listBranches, type Branch } from '../../../../src-shared/api/data-model';
import { listDeployments, type Deployment } from '../../../../src-shared/api/deployments';
import { listProfiles, profileProxyBase, type Profile } from '../../../../src-shared/api/profiles';
import { getRemoteTransfer, listRemoteTransfers, type RemoteTransfer } from '../../../../src-shared/api/remote-transfers';
import { listWorkbooks, type Workbook } from '../../../../src-shared/api/workbooks';
import type { Client } from '../../../../src-shared/api/client';
import { localApi, profileApi } from '../../app/session';
import { toShownError, type ShownError } from '../../lib/errors';
import { fetchAllPages } from '../../lib/paging';
import { useQuery, type Query } from '../../lib/useQuery';

// Data of the "to other profiles" screens. Transfers are the local service's work, so they always
// go to the local service; lists of the other side go to that profile through the local proxy,
// whatever profile the header shows.

export const TERMINAL = ['COMPLETED', 'FAILED', 'CANCELLED'];
export const isFinished = (t: RemoteTransfer): boolean => TERMINAL.includes(t.status);

/** The client of one side: the local service, or a profile through the local proxy. */
export const clientFor = (profile: string | null): Client => (profile === null ? localApi : profileApi(profileProxyBase(profile)));

export function useProfileList(): Query<Profile[]> {
  return useQuery(async (signal) => (await localApi.call(listProfiles, { query: { first: 1000 }, signal })).items, [], 'Loading profiles');
}

/** Deployments of the local service (profile null) or of a profile's service. */
export function useDeploymentsOf(profile: string | null, enabled = true): Query<Deployment[]> {
  return useQuery(
    async (signal) => (enabled ? fetchAllPages((after) => clientFor(profile).call(listDeployments, { query: { first: 500, ...(after ? { after } : {}) }, signal })) : []),
    [profile, enabled],
    profile ? `Loading the deployments of ${profile}` : 'Loading deployments',
  );
}

export function useWorkbooksOf(profile: string | null, deploymentId: number | null): Query<Workbook[]> {
  return useQuery(
    async (signal) =>
      deploymentId === null
        ? []
        : fetchAllPages((after) => clientFor(profile).call(listWorkbooks, { params: { deploymentId }, query: { first: 200, ...(after ? { after } : {}) }, signal }), 1000),
    [profile, deploymentId],
    'Loading workbooks',
  );
}

export function useBranchesOf(profile: string | null, deploymentId: number | null): Query<Branch[]> {
  return useQuery(
    async (signal) =>
      deploymentId === null ? [] : fetchAllPages((after) => clientFor(profile).call(listBranches, { params: { deploymentId }, query: { first: 1000, ...(after ? { after } : {}) }, signal })),
    [profile, deploymentId],
    'Loading branches',
  );
}

/** A transfer, polled about twice a second until it ends. */
export function useTransfer(id: string | null, onEnd?: (transfer: RemoteTransfer) => void): { transfer: RemoteTransfer | null; error: ShownError | null } {
  const [transfer, setTransfer] = useState<RemoteTransfer | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const onEndRef = useRef(onEnd);
  onEndRef.current = onEnd;
  useEffect(() => {
    setTransfer(null);
    setError(null);
    if (id === null) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const current = await localApi.call(getRemoteTransfer, { params: { transferId: id } });
        if (stopped) return;
        setTransfer(current);
        setError(null);
        if (isFinished(current)) {
          onEndRef.current?.(current);
          return;
        }
      } catch (failure) {
        if (stopped) return;
        setError(toShownError(failure, 'Following the transfer'));
      }
      timer = setTimeout(() => void poll(), 500);
    };
    void poll();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [id]);
  return { transfer, error };
}

export function useTransferHistory(filter: { kind?: RemoteTransfer['kind']; deploymentId?: number }, version: number): Query<RemoteTransfer[]> {
  return useQuery(
    async (signal) => (await localApi.call(listRemoteTransfers, { query: { first: 50, ...filter }, signal })).items,
    [filter.kind, filter.deploymentId, version],
    'Loading the history',
  );
}

export const newIdempotencyKey = (): string =>
  typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function' ? `ui-${crypto.randomUUID()}` : `ui-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
