// The one tab bar: tabs that do not fit its width go into a More menu, and the current tab always
// stays in the bar (issue 24: a deployment's twelve tabs wrapped and pushed two off the window).
import { describe, expect, it } from 'vitest';
import { tabsThatFit, visibleTabs } from '../../../src-renderer/src/lib/tab-fit';

const tabs = ['general', 'env', 'environments', 'logs', 'pods', 'build', 'release', 'tasks', 'setup', 'token', 'dev-targets', 'settings'].map((id) => ({ id, title: id }));
const widths = tabs.map(() => 90);

describe('tab bar fitting', () => {
  it('shows every tab when they fit, and no More menu is needed', () => {
    expect(tabsThatFit(widths, 70, 12 * 90, 0)).toBe(12);
  });

  it('shows as many as fit beside the More button, in order', () => {
    // 760 px: More (70) + 7 tabs (630) = 700 fits, an eighth does not.
    expect(tabsThatFit(widths, 70, 760, 0)).toBe(7);
    expect(visibleTabs(tabs, 0, 7).map((t) => t.id)).toEqual(['general', 'env', 'environments', 'logs', 'pods', 'build', 'release']);
  });

  it('keeps the current tab in the bar even when it is one of the last', () => {
    const count = tabsThatFit(widths, 70, 760, 11);
    expect(count).toBe(7);
    const shown = visibleTabs(tabs, 11, count).map((t) => t.id);
    expect(shown).toContain('settings');
    expect(shown).toHaveLength(7);
    expect(shown.slice(0, 6)).toEqual(['general', 'env', 'environments', 'logs', 'pods', 'build']);
  });

  it('a very narrow bar still shows the current tab', () => {
    expect(tabsThatFit(widths, 70, 100, 4)).toBe(1);
    expect(visibleTabs(tabs, 4, 1).map((t) => t.id)).toEqual(['pods']);
  });
});
