// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import en from '../../i18n/locales/en.json';
import { I18nProvider } from '../../i18n/react';
import { createTranslator } from '../../i18n/translator';
import type { Account } from './controller';
import { DataPanel } from './DataPanel';
import de from './locales/de.json';
import accountEn from './locales/en.json';
import type { Storage } from './logic/storage';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
});

/** The data panel over an account whose storage() answers `storage`. */
async function panel(storage: Storage | undefined, lang = 'en') {
  const i18n = createTranslator(lang);
  i18n.addBundle('en', 'translation', en);
  i18n.addBundle('en', 'account', accountEn);
  i18n.addBundle('de', 'account', de);
  const account = { storage: async () => storage } as unknown as Account;
  const container = document.createElement('div');
  await act(async () => {
    root = createRoot(container);
    root.render(
      <I18nProvider i18n={i18n}>
        <DataPanel account={account} user={{ id: 'u1', email: 'ada@example.com', displayName: '', avatar: null }} close={() => {}} />
      </I18nProvider>,
    );
  });
  return container;
}

describe('DataPanel storage', () => {
  it('shows the storage used of the quota with a labelled meter', async () => {
    const c = await panel({ used: 16_200_000, quota: 67_108_864 });
    const section = c.querySelector('section[aria-labelledby="account-storage-heading"]')!;
    expect(section.querySelector('h3')!.textContent).toBe('Storage');
    expect(c.querySelector('#account-storage-text')!.textContent).toBe('16.2 MB of 67.1 MB used');
    const meter = section.querySelector('meter')!;
    expect(meter.getAttribute('aria-labelledby')).toBe('account-storage-heading');
    expect(meter.getAttribute('aria-describedby')).toBe('account-storage-text');
    expect(Number(meter.getAttribute('value'))).toBeCloseTo(16_200_000 / 67_108_864, 6);
    expect(meter.getAttribute('max')).toBe('1');
  });

  it('speaks the page language', async () => {
    const c = await panel({ used: 850_000, quota: 67_108_864 }, 'de');
    expect(c.querySelector('#account-storage-text')!.textContent).toBe('850 kB von 67,1 MB belegt');
  });

  it('shows the usage without a meter when there is no quota, and nothing when it could not be read', async () => {
    let c = await panel({ used: 5_000, quota: 0 });
    expect(c.querySelector('#account-storage-text')!.textContent).toBe('5 kB used');
    expect(c.querySelector('meter')).toBeNull();
    act(() => root?.unmount());
    c = await panel(undefined);
    expect(c.querySelector('#account-storage-heading')).toBeNull();
    expect(c.querySelector('h3')!.textContent).toBe('Export my data');
  });
});
