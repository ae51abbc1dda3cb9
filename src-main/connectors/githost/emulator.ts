import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GitRepository, type FileWrite, type RemoteEndpoint, type Signature } from '../../platform/repo';
import {
  GitHostError,
  GitHostErrorCodes,
  type GitHostApp,
  type GitHostBranch,
  type GitHostConnector,
  type GitHostInstallation,
  type GitHostRepository,
} from './types';

interface RepoMeta {
  id: number;
  owner: string;
  name: string;
  private: boolean;
  defaultBranch: string;
}

interface State {
  nextId: number;
  installations: GitHostInstallation[];
  repositories: RepoMeta[];
}

const NAME = /^[A-Za-z0-9_.-]{1,100}$/;
const COMMIT_ID = /^[0-9a-f]{40}$/;
const EMULATOR_AUTHOR: Signature = { name: 'Drydock local repositories', email: 'githost@drydock.local' };

/**
 * A local repository host: installations and repository metadata in `state.json`, each
 * repository a bare git repository under `repos/<owner>/<name>.git` that plain `git` can push to
 * and fetch from (`git push <gitdir> main`) and that is read here with isomorphic-git.
 */
export class LocalGitHost implements GitHostConnector {
  readonly provider = 'local' as const;

  constructor(
    readonly root: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  // ---- administration (what a user does on the host itself) ----------------------------------

  /** Installs the app on an account (idempotent). */
  createInstallation(login: string, type: 'User' | 'Organization' = 'Organization'): GitHostInstallation {
    checkName(login, 'account');
    const state = this.read();
    const existing = state.installations.find((i) => i.account.login.toLowerCase() === login.toLowerCase());
    if (existing) return existing;
    const installation: GitHostInstallation = {
      id: state.nextId++,
      account: { login, type },
      repositorySelection: 'all',
      createdAt: this.now().toISOString(),
    };
    state.installations.push(installation);
    this.write(state);
    return installation;
  }

  /** Creates a repository of an installed account with a first commit on its default branch. */
  async createRepository(
    owner: string,
    name: string,
    options: { private?: boolean; defaultBranch?: string; files?: FileWrite[]; author?: Signature } = {},
  ): Promise<GitHostRepository> {
    checkName(owner, 'owner');
    checkName(name, 'repository');
    const state = this.read();
    if (!state.installations.some((i) => i.account.login.toLowerCase() === owner.toLowerCase())) {
      throw new GitHostError(GitHostErrorCodes.GITHOST_NOT_FOUND, `The app is not installed on account "${owner}".`, { status: 404 });
    }
    if (state.repositories.some((r) => sameRepo(r, owner, name))) {
      throw new GitHostError(GitHostErrorCodes.GITHOST_ERROR, `Repository ${owner}/${name} already exists.`, { status: 422 });
    }
    const meta: RepoMeta = { id: state.nextId++, owner, name, private: options.private ?? true, defaultBranch: options.defaultBranch ?? 'main' };
    await this.repo(meta).initialize({
      branch: meta.defaultBranch,
      files: options.files?.length ? options.files : [{ path: 'README.md', content: `# ${name}\n` }],
      author: options.author ?? EMULATOR_AUTHOR,
      message: 'Initial commit',
    });
    state.repositories.push(meta);
    this.write(state);
    return this.toRepository(meta);
  }

  /** One commit on a branch of a repository (as a push would bring). */
  async commit(owner: string, name: string, branch: string, files: FileWrite[], message: string, author: Signature = EMULATOR_AUTHOR): Promise<string> {
    const repo = this.repo(this.requireMeta(owner, name));
    if (!(await repo.head(branch))) await repo.createBranch(branch, this.requireMeta(owner, name).defaultBranch);
    return (await repo.commitChanges(branch, files, { message, author })).commit;
  }

  /** Where the bare repository lives (to `git push` to or `git clone` from). */
  gitdirOf(owner: string, name: string): string {
    const meta = this.requireMeta(owner, name);
    return join(this.root, 'repos', meta.owner, `${meta.name}.git`);
  }

  // ---- the connector ---------------------------------------------------------------------------

  async app(): Promise<GitHostApp> {
    return { slug: 'drydock-local', name: 'Local repositories', owner: null, htmlUrl: null };
  }

  async installations(): Promise<GitHostInstallation[]> {
    return [...this.read().installations].sort((a, b) => a.id - b.id);
  }

  async repositories(installationId: number): Promise<GitHostRepository[]> {
    const state = this.read();
    const installation = state.installations.find((i) => i.id === installationId);
    if (!installation) throw new GitHostError(GitHostErrorCodes.GITHOST_NOT_FOUND, `There is no installation ${installationId}.`, { status: 404 });
    return state.repositories
      .filter((r) => r.owner.toLowerCase() === installation.account.login.toLowerCase())
      .sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1))
      .map((r) => this.toRepository(r));
  }

  async repository(owner: string, repo: string): Promise<GitHostRepository | null> {
    const meta = this.findMeta(owner, repo);
    return meta ? this.toRepository(meta) : null;
  }

  async installationFor(owner: string, repo: string): Promise<number | null> {
    const meta = this.findMeta(owner, repo);
    if (!meta) return null;
    return this.read().installations.find((i) => i.account.login.toLowerCase() === meta.owner.toLowerCase())?.id ?? null;
  }

  async branches(owner: string, repo: string): Promise<GitHostBranch[]> {
    const meta = this.findMeta(owner, repo);
    if (!meta) throw new GitHostError(GitHostErrorCodes.GITHOST_NOT_FOUND, `Repository ${owner}/${repo} was not found.`, { status: 404 });
    const git = this.repo(meta);
    const branches: GitHostBranch[] = [];
    for (const name of await git.branches()) branches.push({ name, commit: (await git.head(name))!, protected: false });
    return branches;
  }

  async resolveRef(owner: string, repo: string, ref: string): Promise<string | null> {
    const meta = this.findMeta(owner, repo);
    if (!meta) return null;
    const git = this.repo(meta);
    if (COMMIT_ID.test(ref)) {
      try {
        await git.readCommit(ref);
        return ref;
      } catch {
        return null;
      }
    }
    return git.head(ref);
  }

  async gitRemote(target: { owner: string; repo: string }): Promise<RemoteEndpoint> {
    const meta = this.requireMeta(target.owner, target.repo);
    return { kind: 'local', gitdir: this.gitdirOf(meta.owner, meta.name), label: `${meta.owner}/${meta.name}` };
  }

  async readFile(owner: string, repo: string, ref: string, path: string): Promise<Uint8Array | null> {
    const commit = await this.resolveRef(owner, repo, ref);
    if (!commit) return null;
    const git = this.repo(this.findMeta(owner, repo)!);
    const entry = (await git.treeOf(commit)).get(path);
    return entry ? git.readBlob(entry.oid) : null;
  }

  // ---- storage -----------------------------------------------------------------------------------

  private repo(meta: RepoMeta): GitRepository {
    return GitRepository.at(join(this.root, 'repos', meta.owner, `${meta.name}.git`), this.now);
  }

  private toRepository(meta: RepoMeta): GitHostRepository {
    return {
      id: meta.id,
      owner: meta.owner,
      name: meta.name,
      fullName: `${meta.owner}/${meta.name}`,
      private: meta.private,
      defaultBranch: meta.defaultBranch,
      htmlUrl: null,
      cloneUrl: join(this.root, 'repos', meta.owner, `${meta.name}.git`),
    };
  }

  private findMeta(owner: string, name: string): RepoMeta | undefined {
    return this.read().repositories.find((r) => sameRepo(r, owner, name));
  }

  private requireMeta(owner: string, name: string): RepoMeta {
    const meta = this.findMeta(owner, name);
    if (!meta) throw new GitHostError(GitHostErrorCodes.GITHOST_NOT_FOUND, `Repository ${owner}/${name} was not found.`, { status: 404 });
    return meta;
  }

  private read(): State {
    const file = join(this.root, 'state.json');
    if (!existsSync(file)) return { nextId: 1, installations: [], repositories: [] };
    return JSON.parse(readFileSync(file, 'utf8')) as State;
  }

  private write(state: State): void {
    mkdirSync(this.root, { recursive: true });
    const file = join(this.root, 'state.json');
    // Write then rename: a reader never sees half a file.
    writeFileSync(`${file}.tmp`, JSON.stringify(state, null, 2));
    renameSync(`${file}.tmp`, file);
  }
}

const sameRepo = (meta: RepoMeta, owner: string, name: string) =>
  meta.owner.toLowerCase() === owner.toLowerCase() && meta.name.toLowerCase() === name.toLowerCase();

function checkName(name: string, what: string): void {
  if (!NAME.test(name) || name === '.' || name === '..' || name.endsWith('.git')) {
    throw new GitHostError(GitHostErrorCodes.GITHOST_ERROR, `"${name}" is not a valid ${what} name (letters, digits, '.', '-', '_').`, { status: 422 });
  }
}
