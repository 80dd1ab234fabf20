// @vitest-environment happy-dom
import { act } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import en from '../i18n/locales/en.json';
import { I18nProvider } from '../i18n/react';
import { createTranslator } from '../i18n/translator';
import { themeKey } from './theme';
import { ThemeSwitch } from './ThemeSwitch';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function page() {
  const i18n = createTranslator('en');
  i18n.addBundle('en', 'translation', en);
  return (
    <I18nProvider i18n={i18n}>
      <ThemeSwitch />
    </I18nProvider>
  );
}

afterEach(() => {
  localStorage.clear();
  delete document.documentElement.dataset.theme;
});

describe('ThemeSwitch', () => {
  it('is prerendered as automatic, shows the stored choice once hydrated, and cycles from it', () => {
    localStorage.setItem(themeKey, 'light');
    const html = renderToString(page());
    expect(html).toContain('aria-label="Theme: automatic (as your device)"');

    const container = document.createElement('div');
    container.innerHTML = html;
    let root: Root | undefined;
    act(() => {
      root = hydrateRoot(container, page());
    });
    const button = container.querySelector('button')!;
    expect(button.getAttribute('aria-label')).toBe('Theme: light');

    act(() => button.click());
    expect([button.getAttribute('aria-label'), localStorage.getItem(themeKey), document.documentElement.dataset.theme]).toEqual([
      'Theme: dark',
      'dark',
      'dark',
    ]);
    act(() => button.click());
    expect([button.getAttribute('aria-label'), localStorage.getItem(themeKey)]).toEqual(['Theme: automatic (as your device)', null]);
    act(() => root?.unmount());
  });
});
