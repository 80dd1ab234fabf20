// The consent banner's chunk, loaded at page start only where a tag manager is configured
// (public.ts). It reads the stored answer, loads the container after an acceptance, shows the
// banner when an answer is due (in a root of its own, last in the page as it is last on screen:
// the skip link stays the first stop of the keyboard, and Shift+Tab from the top reaches the
// banner at once), and reopens it from the footer's "Cookie settings", which it puts there (the
// prerendered page never has it: without a tag manager there is nothing to set).
import { useLayoutEffect } from 'react';
import { createPortal } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { ensureNamespaces } from '../../i18n';
import { I18nProvider, useTranslation } from '../../i18n/react';
import type { I18n } from '../../i18n/translator';
import { createStore, useStore, type Readable } from '../../lib/store';
import type { View } from '../../router/view';
import { nextZIndex } from '../../ui/zIndex';
import { Banner } from './Banner';
import { CookieSettings } from './CookieSettings';
import { containerLoaded, globalPrivacyControl, loadContainer, storedRecord, storeChoice, withdraw } from './browser';
import { startOf, type Choice, type ConsentRecord } from './logic/record';
import { consentShell } from './shell';
import './consent.css';

interface BannerState {
  open: boolean;
  fromSettings: boolean;
  record?: ConsentRecord;
}

let settings: ((from?: HTMLElement) => void) | undefined;

/** Starts consent for this page (once): the container if accepted, the banner if an answer is due. */
export function start(views: Readable<View>, i18n: I18n, container: string) {
  if (settings) return;
  const gpc = globalPrivacyControl();
  const record = storedRecord();
  const begin = startOf(record, gpc);
  if (begin === 'load') loadContainer(container, views);
  const state = createStore<BannerState>({ open: begin === 'ask', fromSettings: false, record });
  let returnTo: HTMLElement | undefined;
  const root = document.createElement('div');
  root.id = 'consent-root';

  const close = () => {
    const { fromSettings } = state.get();
    const hadFocus = root.contains(document.activeElement);
    state.set((s) => ({ ...s, open: false, fromSettings: false }));
    if (!hadFocus) return;
    // Back where the visitor was: the footer's button, or the page.
    const target = fromSettings && returnTo?.isConnected ? returnTo : document.getElementById('main');
    target?.focus({ preventScroll: !fromSettings });
  };
  const choose = (choice: Choice) => {
    const record = storeChoice(choice);
    if (choice === 'accepted') loadContainer(container, views);
    else if (containerLoaded()) return withdraw(); // reloads: the tag manager cannot be unloaded
    state.set((s) => ({ ...s, record }));
    close();
  };
  // Closing answers like Reject, unless an answer is in force (settings reopened to look).
  const dismiss = () => (state.get().record ? close() : choose('rejected'));
  const zIndex = nextZIndex();

  // The footer's "Cookie settings": last in its list of links, from when its words are in.
  const footerItem = document.createElement('li');

  function ConsentRoot() {
    const { open, fromSettings, record } = useStore(state);
    const { language } = useStore(consentShell);
    useTranslation(); // a change of language renders again: hidden until its words are in
    const ready = language === i18n.language;
    useLayoutEffect(() => {
      if (ready && !footerItem.isConnected) document.querySelector('.site-footer nav ul')?.append(footerItem);
    }, [ready]);
    if (!ready) return null;
    return (
      <>
        {createPortal(<CookieSettings onOpen={(button) => settings?.(button)} />, footerItem)}
        {open && <Banner key={String(fromSettings)} record={record} fromSettings={fromSettings} gpc={gpc} zIndex={zIndex} onChoose={choose} onDismiss={dismiss} />}
      </>
    );
  }

  // The banner's words, in the page's language, and again after each change of language.
  const loadWords = () => {
    const code = i18n.language;
    void ensureNamespaces(i18n, ['consent']).then(() => {
      if (i18n.language === code) consentShell.set({ language: code });
    });
  };
  loadWords();
  i18n.subscribe(loadWords);

  document.body.append(root);
  createRoot(root).render(
    <I18nProvider i18n={i18n}>
      <ConsentRoot />
    </I18nProvider>,
  );

  settings = (from) => {
    returnTo = from;
    state.set((s) => ({ open: true, fromSettings: true, record: storedRecord() ?? s.record }));
  };
}

/** Reopens the banner (the footer's "Cookie settings"); focus returns to `from` when it closes. */
export function openSettings(from?: HTMLElement) {
  settings?.(from);
}
