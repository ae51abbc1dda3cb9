import { create } from 'zustand';
import { createDeployment, deleteDeployment, listDeployments, updateDeployment, type CreateDeploymentInput, type Deployment, type UpdateDeploymentInput } from '../../../../src-shared/api/deployments';
import { onServiceChange } from '../../app/endpoint';
import { api } from '../../app/session';
import { toShownError, type ShownError } from '../../lib/errors';

const PAGE_SIZE = 100;

interface DeploymentsState {
  items: Deployment[];
  endCursor: string | null;
  hasNextPage: boolean;
  loading: boolean;
  loaded: boolean;
  error: ShownError | null;
  load(): Promise<void>;
  loadMore(): Promise<void>;
  /** Create, update and delete throw the API's problem to the form that called them. */
  create(input: CreateDeploymentInput): Promise<Deployment>;
  update(id: number, patch: UpdateDeploymentInput): Promise<Deployment>;
  remove(id: number): Promise<void>;
  /** Puts a freshly fetched deployment in the list. */
  put(deployment: Deployment): void;
}

const upsert = (items: Deployment[], deployment: Deployment) =>
  items.some((d) => d.id === deployment.id) ? items.map((d) => (d.id === deployment.id ? deployment : d)) : [...items, deployment];

export const useDeployments = create<DeploymentsState>((set, get) => ({
  items: [],
  endCursor: null,
  hasNextPage: false,
  loading: false,
  loaded: false,
  error: null,

  async load() {
    set({ loading: true });
    try {
      const page = await api.call(listDeployments, { query: { first: PAGE_SIZE } });
      set({ items: page.items, endCursor: page.pageInfo.endCursor, hasNextPage: page.pageInfo.hasNextPage, error: null, loaded: true });
    } catch (error) {
      set({ error: toShownError(error, 'Loading deployments') });
    } finally {
      set({ loading: false });
    }
  },

  async loadMore() {
    const { endCursor, hasNextPage } = get();
    if (!hasNextPage || !endCursor) return;
    set({ loading: true });
    try {
      const page = await api.call(listDeployments, { query: { first: PAGE_SIZE, after: endCursor } });
      set((s) => ({ items: [...s.items, ...page.items], endCursor: page.pageInfo.endCursor, hasNextPage: page.pageInfo.hasNextPage, error: null }));
    } catch (error) {
      set({ error: toShownError(error, 'Loading more deployments') });
    } finally {
      set({ loading: false });
    }
  },

  async create(input) {
    const created = await api.call(createDeployment, { body: input });
    set((s) => ({ items: upsert(s.items, created) }));
    return created;
  },

  async update(id, patch) {
    const updated = await api.call(updateDeployment, { params: { deploymentId: id }, body: patch });
    set((s) => ({ items: upsert(s.items, updated) }));
    return updated;
  },

  async remove(id) {
    await api.call(deleteDeployment, { params: { deploymentId: id } });
    set((s) => ({ items: s.items.filter((d) => d.id !== id) }));
  },

  put(deployment) {
    set((s) => ({ items: upsert(s.items, deployment) }));
  },
}));

// Another service in the header: these deployments are not its deployments.
onServiceChange(() => useDeployments.setState({ items: [], endCursor: null, hasNextPage: false, loaded: false, loading: false, error: null }));
