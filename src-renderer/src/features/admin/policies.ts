import { POLICY_ACTIONS, type PolicyActionName } from '../../../../src-shared/api/access';
import type { User } from '../../../../src-shared/api/identity';

/** What a user's own policy list says about one action: nothing (role decides), granted, or withdrawn. */
export type PolicyChoice = 'role' | 'grant' | 'withdraw';

export interface PolicyChoices {
  choices: Record<PolicyActionName, PolicyChoice>;
  /** Entries this UI does not know (kept as they are, so saving never loses them). */
  others: string[];
}

const isKnown = (name: string): name is PolicyActionName => (POLICY_ACTIONS as readonly string[]).includes(name);

/** `['SchemaUpdate', '-SqlRunnerRead']` → a choice per known action, plus unknown entries. */
export function choicesOf(userPolicies: readonly string[]): PolicyChoices {
  const choices = Object.fromEntries(POLICY_ACTIONS.map((a) => [a, 'role'])) as Record<PolicyActionName, PolicyChoice>;
  const others: string[] = [];
  for (const entry of userPolicies) {
    const withdrawn = entry.startsWith('-');
    const name = withdrawn ? entry.slice(1) : entry;
    if (isKnown(name)) choices[name] = withdrawn ? 'withdraw' : 'grant';
    else if (!others.includes(entry)) others.push(entry);
  }
  return { choices, others };
}

/** The inverse of `choicesOf`: known actions in their canonical order, then the unknown entries. */
export function policiesOf({ choices, others }: PolicyChoices): string[] {
  const list: string[] = [];
  for (const action of POLICY_ACTIONS) {
    if (choices[action] === 'grant') list.push(action);
    else if (choices[action] === 'withdraw') list.push(`-${action}`);
  }
  return [...list, ...others];
}

export interface UserForm {
  name: string;
  email: string;
  role: User['role'];
  active: boolean;
  policies: PolicyChoices;
}

export const newUserForm = (): UserForm => ({ name: '', email: '', role: 'viewer', active: true, policies: choicesOf([]) });

export const userFormOf = (user: User): UserForm => ({
  name: user.name,
  email: user.email,
  role: user.role,
  active: user.active,
  policies: choicesOf(user.userPolicies),
});

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((item, i) => item === b[i]);

/** Only what changed (the service keeps what is left out); `userPolicies` is sent whole when it changed. */
export function userPatch(user: User, form: UserForm): Partial<Pick<User, 'name' | 'email' | 'role' | 'active' | 'userPolicies'>> {
  const patch: Partial<Pick<User, 'name' | 'email' | 'role' | 'active' | 'userPolicies'>> = {};
  if (form.name !== user.name) patch.name = form.name;
  if (form.email.trim() !== user.email) patch.email = form.email.trim();
  if (form.role !== user.role) patch.role = form.role;
  if (form.active !== user.active) patch.active = form.active;
  const policies = policiesOf(form.policies);
  if (!sameList(policies, policiesOf(choicesOf(user.userPolicies)))) patch.userPolicies = policies;
  return patch;
}
