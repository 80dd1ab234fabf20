// The import boundaries rule on a small tree (fixtures/src, its modules empty), and that
// eslint.config.js applies it to web/src. Run by `make lint`: node --test web/eslint/
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { ESLint, RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import boundaries from './boundaries.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const src = path.join(import.meta.dirname, 'fixtures/src');
const options = [{ src }];
const at = (file) => path.join(src, file);
const tester = new RuleTester({ languageOptions: { parser: tseslint.parser } });

/** A case for the file at `file` (under fixtures/src) with `code`, and its expected errors. */
const ok = (file, code) => ({ filename: at(file), code, options });
const bad = (file, code, ...errors) => ({ filename: at(file), code, options, errors });

describe('handy/boundaries', () => {
  tester.run('(a) logic/ has no React and no .tsx', boundaries.rules.boundaries, {
    valid: [
      ok('features/area/logic/state.ts', "import { units } from './units';"),
      ok('features/area/logic/state.ts', "import { formatNumber } from '../../../lib/number';"),
      ok('features/area/logic/state.ts', "import { reactive } from 'reactive';"),
      ok('features/area/Diagram.tsx', "import { useState } from 'react';\nimport { state } from './logic/state';"),
    ],
    invalid: [
      bad('features/area/logic/state.ts', "import { useState } from 'react';", {
        message: 'features/area/logic/state imports react: logic/ is pure TypeScript, without React or the DOM',
      }),
      bad('features/area/logic/state.ts', "import type { ReactNode } from 'react';", { messageId: 'logicReact' }),
      bad('features/area/logic/state.ts', "import { createRoot } from 'react-dom/client';", { messageId: 'logicReact' }),
      bad('features/area/logic/state.ts', "export { jsx } from 'react/jsx-runtime';", { messageId: 'logicReact' }),
      bad('features/area/logic/state.ts', "import { Diagram } from '../Diagram';", {
        message:
          'features/area/logic/state imports features/area/Diagram.tsx: logic/ imports no component (.tsx); move what it needs into logic/',
      }),
      bad('features/area/logic/state.ts', "import '../Diagram.tsx';", { messageId: 'logicTsx' }),
      bad('features/area/logic/state.ts', "export * from '../widgets';", { messageId: 'logicTsx' }),
      bad('features/area/logic/state.ts', "const m = import('../Diagram');", { messageId: 'logicTsx' }),
      bad('features/area/logic/state.ts', "type D = typeof import('../Diagram');", { messageId: 'logicTsx' }),
    ],
  });

  tester.run('(b) a feature imports another only through its public module', boundaries.rules.boundaries, {
    valid: [
      ok('features/account/AccountDialog.tsx', "import { areaUnits } from '../area/public';"),
      ok('features/account/AccountDialog.tsx', "import type { Shape } from '../area/public.ts';"),
      ok('features/account/AccountDialog.tsx', "import { session } from './session';\nimport './dialog.css';"),
      ok('features/area/logic/state.ts', "import { x } from '../../area/logic/units';"),
      ok('features/flip/FlipImageTool.tsx', "new Worker(new URL('./flip.worker.ts', import.meta.url));"),
    ],
    invalid: [
      bad('features/account/AccountDialog.tsx', "import { state } from '../area/logic/state';", {
        message: 'features/account imports features/area/logic/state: import features/area/public instead',
      }),
      bad('features/account/api.ts', "import type { State } from '../area/logic/state';", { messageId: 'feature' }),
      bad('features/account/logic/errors.ts', "export * from '../../area/logic/units';", { messageId: 'feature' }),
      bad('features/account/api.ts', "const page = () => import('../area/page');", { messageId: 'feature' }),
      bad('features/account/api.ts', "type S = typeof import('../area/logic/state');", { messageId: 'feature' }),
      bad('features/account/api.ts', "import '../area/area.css';", { messageId: 'feature' }),
      bad('features/account/api.ts', "import { a } from '../area';", { messageId: 'feature' }),
      bad('features/account/api.ts', "const all = import.meta.glob('../*/logic/*.ts');", { messageId: 'feature' }),
      bad('features/account/api.ts', "new Worker(new URL('../flip/flip.worker.ts', import.meta.url));", { messageId: 'feature' }),
    ],
  });

  tester.run('(c) a shared layer imports no feature', boundaries.rules.boundaries, {
    valid: [
      ok('lib/number.ts', "import { site } from './site';\nimport { t } from '../i18n/translator';"),
      ok('ui/fields/Field.tsx', "import { useState } from 'react';\nimport { formatNumber } from '../../lib/number';"),
      ok(
        'i18n/index.ts',
        "const chunks = import.meta.glob(['./locales/*.json', '../*/locales/*.json', '../features/*/locales/*.json', '!../features/x/locales/en.json']);",
      ),
      ok('i18n/index.ts', "const en = () => import('../features/area/locales/en.json');"),
    ],
    invalid: [
      bad('lib/number.ts', "import { units } from '../features/area/logic/units';", {
        message:
          'lib/number imports features/area/logic/units: a shared layer (lib/) imports no feature; move the code out of the feature or pass it in',
      }),
      bad('ui/Toasts.tsx', "import { areaUnits } from '../features/area/public';", { messageId: 'shared' }),
      bad('i18n/index.ts', "import type { Messages } from '../features/area/messages';", { messageId: 'shared' }),
      bad('router/start.ts', "const page = () => import('../features/area/page');", { messageId: 'shared' }),
      bad('calculator/useQueryState.ts', "const all = import.meta.glob(['../features/*/logic/*.ts']);", { messageId: 'shared' }),
      bad('cropper/index.ts', "export { state } from '/src/features/area/logic/state';", { messageId: 'shared' }),
      bad('theme/theme.ts', "import x = require('../features/account/session');", { messageId: 'shared' }),
    ],
  });

  const order = 'lib, ui, i18n, theme, sync, router, cropper, calculator < page < features < app';
  tester.run('(c) layers point one way: shared < page/ < features/ < app/', boundaries.rules.boundaries, {
    valid: [
      ok('page/PageIntro.tsx', "import { useTranslation } from '../i18n/react';\nimport type { Payload } from '../router/payload';"),
      ok('page/module.ts', "import type { ComponentType } from 'react';\nimport { Prose } from './Prose';"),
      ok('features/area/page.tsx', "import { PageIntro } from '../../page/PageIntro';\nimport type { PageProps } from '../../page/module';"),
      ok('features/area/Diagram.tsx', "import { view } from '../../router/view';\nimport { site } from '/src/lib/site';"),
      ok('app/pages/faq.tsx', "import { PageIntro } from '../../page/PageIntro';\nimport { Contents } from '../Contents';"),
      ok('app/entry-client.tsx', "import { startRuntime } from '../router/start';\nimport { loadPage } from './pageRegistry';"),
      ok('router/start.ts', "import type { Payload } from './payload';\nimport { resolve } from '../lib/site';\nimport { t } from '../i18n/translator';"),
      ok('lib/site.ts', "import type en from '../i18n/locales/en.json';"),
    ],
    invalid: [
      bad('features/area/page.tsx', "import { PageIntro } from '../../app/PageIntro';", {
        message: `features/area/page imports app/PageIntro: features/ is below app/ and imports nothing of it (layers, lowest first: ${order}); move what both need down, or hand it in`,
      }),
      bad('features/area/page.tsx', "import type { PageProps } from '../../app/pageRegistry';", { messageId: 'layer' }),
      bad('features/admin/entry.tsx', "import '../../app/styles.css';", { messageId: 'layer' }),
      bad('features/area/logic/state.ts', "export { pageText } from '../../../app/content';", { messageId: 'layer' }),
      bad('router/start.ts', "import { loadPage } from '../app/pageRegistry';", {
        message: `router/start imports app/pageRegistry: router/ is below app/ and imports nothing of it (layers, lowest first: ${order}); move what both need down, or hand it in`,
      }),
      bad('router/start.ts', "import type { BootData } from '../app/document';", { messageId: 'layer' }),
      bad('router/payload.ts', "import type { FaqItem } from '../page/content';", { messageId: 'layer' }),
      bad('lib/site.ts', "export * from '/src/app/document';", { messageId: 'layer' }),
      bad('ui/Toasts.tsx', "const prose = () => import('../page/Prose');", { messageId: 'layer' }),
      bad('i18n/index.ts', "const pages = import.meta.glob('../app/pages/*.tsx');", { messageId: 'layer' }),
      bad('cropper/Cropper.tsx', "type B = typeof import('../app/document');", { messageId: 'layer' }),
      bad('page/module.ts', "import type { BootData } from '../app/document';", { messageId: 'layer' }),
      bad('page/PageIntro.tsx', "import { areaUnits } from '../features/area/public';", {
        message:
          'page/PageIntro imports features/area/public: a shared layer (page/) imports no feature; move the code out of the feature or pass it in',
      }),
      bad('page/module.ts', "const pages = import.meta.glob('../features/*/page.tsx');", { messageId: 'shared' }),
    ],
  });

  tester.run('(d) app/ imports a feature only through its public module and its page', boundaries.rules.boundaries, {
    valid: [
      ok('app/Header.tsx', "import { AccountButton } from '../features/account/public';"),
      ok('app/pageRegistry.ts', "const modules = import.meta.glob(['./pages/*.tsx', '../features/*/page.tsx']);"),
      ok('app/pageRegistry.ts', "const area = () => import('../features/area/page');"),
      ok('app/pages/index.tsx', "import type { Shape } from '../../features/area/public.ts';"),
    ],
    invalid: [
      bad('app/App.tsx', "import { AreaCalculator } from '../features/area/AreaCalculator';", {
        message: 'app/App imports features/area/AreaCalculator: app/ imports only features/area/public or features/area/page',
      }),
      bad('app/Layout.tsx', "export { state } from '../features/area/logic/state';", { messageId: 'app' }),
      bad('app/pageRegistry.ts', "const modules = import.meta.glob('../features/**/page.tsx');", { messageId: 'app' }),
      bad('app/pageRegistry.ts', "const modules = import.meta.glob('../features/*/*.tsx');", { messageId: 'app' }),
      bad('app/pageRegistry.ts', "const messages = import.meta.glob('../features/*/locales/*.json');", { messageId: 'app' }),
    ],
  });

  tester.run('(e) test-only code (test/ beside src/) is imported only by tests', boundaries.rules.boundaries, {
    valid: [
      ok('sync/engine.test.ts', "import { fakeServer } from '../../test/sync/fakeServer';"),
      ok('features/area/logic/state.test.ts', "import { fakeServer } from '../../../../test/sync/fakeServer';"),
    ],
    invalid: [
      bad('sync/engine.ts', "import { fakeServer } from '../../test/sync/fakeServer';", {
        message: 'sync/engine imports test/sync/fakeServer: test/ is test-only code, imported only by tests (*.test.ts)',
      }),
      bad('features/area/logic/state.ts', "export * from '../../../../test/sync/fakeServer';", { messageId: 'testOnly' }),
      bad('app/document.ts', "const m = import('/test/sync/fakeServer');", { messageId: 'testOnly' }),
      bad('main.ts', "import '../test/sync/fakeServer';", { messageId: 'testOnly' }),
    ],
  });

  tester.run('files outside src/ are not checked', boundaries.rules.boundaries, {
    valid: [
      {
        filename: path.join(import.meta.dirname, 'fixtures/e2e/flip.spec.ts'),
        code: "import { withExif } from '../src/features/flip/logic/exif';",
        options,
      },
    ],
    invalid: [],
  });
});

describe('eslint.config.js', () => {
  const root = path.resolve(import.meta.dirname, '../..');
  const eslint = new ESLint({ cwd: root });

  it('applies the boundaries rule to web/src', async () => {
    const config = await eslint.calculateConfigForFile(path.join(root, 'web/src/features/area/logic/state.ts'));
    assert.deepEqual(config.rules['handy/boundaries'], [2, { src: path.join(root, 'web/src') }]);
    assert.equal(config.rules['react-hooks/rules-of-hooks'][0], 2);
    assert.equal(config.rules['react-hooks/exhaustive-deps'][0], 2);
  });

  it('wants a reason on every eslint-disable', async () => {
    const lint = async (code) => (await eslint.lintText(code, { filePath: path.join(root, 'scripts/example.mjs') }))[0].messages;
    const bare = await lint('// eslint-disable-next-line no-debugger\ndebugger;\n');
    assert.deepEqual(
      bare.map((m) => m.ruleId),
      ['@eslint-community/eslint-comments/require-description'],
    );
    assert.deepEqual(await lint('// eslint-disable-next-line no-debugger -- a reason\ndebugger;\n'), []);
  });
});
