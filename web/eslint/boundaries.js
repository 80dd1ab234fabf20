// The front end's import boundaries, as one ESLint rule (`handy/boundaries`), so that "layers point
// one way" and "a feature does not import another feature's insides" are checked rather than
// hoped for. Paths are taken under web/src/ (the `src` option). The layers, lowest first:
//
//   shared: lib/, ui/, i18n/, theme/, sync/, router/, cropper/, calculator/
//   page/:  what pages share (the page module's contract, intro, prose, long-form text, language switcher)
//   features/<name>/
//   app/:   the entries, the shell, the page registry
//
//   (a) features/X/logic/ is pure TypeScript: no react, react-dom, react/* and no .tsx module;
//   (b) features/A/ may import from features/B/ only features/B/public;
//   (c) a module imports from its own layer and those below it, never from one above: a shared
//       layer imports no page/, no feature and no app/; page/ no feature and no app/; a feature
//       no app/. One exception: i18n/ collects every feature's locales/*.json (each locale is its
//       own chunk, found by import.meta.glob). What two layers need goes down into the lower
//       one, or the higher hands it in (the app gives the router what prepares a page's islands);
//   (d) app/ may import from features/X/ only features/X/public and features/X/page (the page
//       registry's import.meta.glob of features/*/page.tsx);
//   (e) test-only code lives in test/ beside src/ (web/test/): only a test (*.test.ts, *.test.tsx)
//       may import it, so that nothing a build reaches can.
//
// Checked: import (type or not), export … from, import(), typeof import(), import x = require(),
// new URL('…', import.meta.url) and the string patterns of import.meta.glob. A glob is checked by
// its literal folders: `../features/*/page.tsx` names features/ and page, `../**/x.ts` names
// neither and is not checked.
import { existsSync } from 'node:fs';
import path from 'node:path';

/** The layers, lowest first: each folder under src/ and its rank. */
const LAYERS = [
  ['lib', 'ui', 'i18n', 'theme', 'sync', 'router', 'cropper', 'calculator'],
  ['page'],
  ['features'],
  ['app'],
];
const RANK = new Map(LAYERS.flatMap((tops, rank) => tops.map((top) => [top, rank])));
/** The order as messages state it: "lib, ui, … < page < features < app". */
const ORDER = LAYERS.map((tops) => tops.join(', ')).join(' < ');
const SCRIPT_EXT = /\.(ts|tsx|js|jsx|mjs)$/;
const REACT = /^react(-dom)?(\/|$)/;
const GLOB = /[*?{}[\]]/;
const TEST_FILE = /\.test\.(ts|tsx|js|mjs)$/;

/**
 * Where a path under src/ sits: its layer's rank and folder (top), and what kind of layer: a
 * feature (its name and the segments under it), app/, page/ or a shared layer.
 */
function place(segments) {
  const [top, name, ...rest] = segments;
  const rank = RANK.get(top);
  if (rank === undefined || (top === 'features' && name === undefined)) return { kind: 'other' };
  if (top === 'features') return { kind: 'feature', top, rank, name, rest };
  return { kind: top === 'app' || top === 'page' ? top : 'shared', top, rank, name: top };
}

/** A module's name in messages: its path under src/ without a script extension. */
const moduleName = (segments) => segments.join('/').replace(SCRIPT_EXT, '');

/** The .tsx file a resolved specifier names, if it names one: as written, or found as Vite would. */
function tsxFile(abs) {
  if (abs.endsWith('.tsx')) return abs;
  if (SCRIPT_EXT.test(abs)) return undefined;
  for (const candidate of [`${abs}.ts`, `${abs}.d.ts`, `${abs}.tsx`, path.join(abs, 'index.ts'), path.join(abs, 'index.tsx')]) {
    if (existsSync(candidate)) return candidate.endsWith('.tsx') ? candidate : undefined;
  }
  return undefined;
}

/** The specifier a node imports, with the node to report on; undefined if it imports nothing static. */
function stringOf(node) {
  if (!node) return undefined;
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
  return undefined;
}

const isImportMeta = (node, property) =>
  node?.type === 'MemberExpression' &&
  node.object.type === 'MetaProperty' &&
  node.object.meta.name === 'import' &&
  node.object.property.name === 'meta' &&
  node.property.type === 'Identifier' &&
  node.property.name === property;

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Keeps the layers pointing one way (shared < page < features < app), features apart and logic/ pure' },
    schema: [{ type: 'object', properties: { src: { type: 'string' } }, additionalProperties: false }],
    messages: {
      logicReact: '{{from}} imports {{target}}: logic/ is pure TypeScript, without React or the DOM',
      logicTsx: '{{from}} imports {{target}}: logic/ imports no component (.tsx); move what it needs into logic/',
      feature: '{{from}} imports {{target}}: import features/{{name}}/public instead',
      shared: '{{from}} imports {{target}}: a shared layer ({{layer}}/) imports no feature; move the code out of the feature or pass it in',
      layer:
        '{{from}} imports {{target}}: {{layer}}/ is below {{above}}/ and imports nothing of it (layers, lowest first: {{order}}); move what both need down, or hand it in',
      app: '{{from}} imports {{target}}: app/ imports only features/{{name}}/public or features/{{name}}/page',
      testOnly: '{{from}} imports {{target}}: test/ is test-only code, imported only by tests (*.test.ts)',
    },
  },
  create(context) {
    const src = path.resolve(context.cwd, context.options[0]?.src ?? 'web/src');
    const testDir = path.join(path.dirname(src), 'test');
    const file = context.filename;
    const fromRel = path.relative(src, file);
    if (fromRel.startsWith('..') || path.isAbsolute(fromRel)) return {};
    const fromSegments = fromRel.split(path.sep);
    const from = place(fromSegments);
    const isTest = TEST_FILE.test(file);
    const inLogic = from.kind === 'feature' && from.rest[0] === 'logic' && from.rest.length > 1;

    function check(node, specifier) {
      const bare = specifier.replace(/[?#].*$/, '');
      if (bare.startsWith('!')) return; // a glob's negative pattern adds nothing
      const relative = bare === '.' || bare === '..' || bare.startsWith('./') || bare.startsWith('../');
      if (!relative && !bare.startsWith('/')) {
        if (inLogic && REACT.test(bare)) {
          context.report({ node, messageId: 'logicReact', data: { from: moduleName(fromSegments), target: bare } });
        }
        return;
      }
      // A leading / is Vite's root, the folder that holds src/.
      const abs = relative ? path.resolve(path.dirname(file), bare) : path.join(path.dirname(src), bare);
      const inTest = path.relative(testDir, abs);
      if (!isTest && !inTest.startsWith('..') && !path.isAbsolute(inTest)) {
        // (e) test-only code, from a module a build may reach
        context.report({ node, messageId: 'testOnly', data: { from: moduleName(fromSegments), target: `test/${inTest.split(path.sep).join('/')}` } });
        return;
      }
      if (from.kind === 'other') return;
      const toRel = path.relative(src, abs);
      if (toRel.startsWith('..') || path.isAbsolute(toRel)) return;
      const toSegments = toRel.split(path.sep);
      const target = moduleName(toSegments);
      const glob = GLOB.test(bare);

      const tsx = glob ? (/tsx\}?$/.test(bare) ? abs : undefined) : tsxFile(abs);
      if (inLogic && tsx) {
        const shown = path.relative(src, tsx).split(path.sep).join('/');
        context.report({ node, messageId: 'logicTsx', data: { from: moduleName(fromSegments), target: shown } });
      }

      const to = place(toSegments);
      if (to.kind === 'other') return;
      if (to.kind !== 'feature') {
        // (c) up to page/ or app/; an import of a feature is checked below
        if (to.rank > from.rank) {
          context.report({ node, messageId: 'layer', data: { from: moduleName(fromSegments), target, layer: from.top, above: to.top, order: ORDER } });
        }
        return;
      }
      // What the import names under features/X/, extension dropped: ['public'], ['logic', 'state'].
      // A glob's ** in place of X may reach any depth, so it names nothing in particular.
      const under = to.rest.map((s, i) => (i === to.rest.length - 1 ? s.replace(SCRIPT_EXT, '') : s));
      const only = (name) => to.name !== '**' && under.length === 1 && under[0] === name;

      if (from.kind === 'feature' && to.name !== from.name && !only('public')) {
        context.report({ node, messageId: 'feature', data: { from: `features/${from.name}`, target, name: to.name } });
      } else if (from.rank < to.rank) {
        // (c) a shared layer or page/ importing a feature
        const locales = from.name === 'i18n' && to.name !== '**' && under.length === 2 && under[0] === 'locales' && under[1].endsWith('.json');
        if (!locales) {
          context.report({ node, messageId: 'shared', data: { from: moduleName(fromSegments), target, layer: from.name } });
        }
      } else if (from.kind === 'app' && !only('public') && !only('page')) {
        context.report({ node, messageId: 'app', data: { from: moduleName(fromSegments), target, name: to.name } });
      }
    }

    const source = (node) => {
      const s = stringOf(node.source);
      if (s !== undefined) check(node.source, s);
    };

    return {
      ImportDeclaration: source,
      ExportNamedDeclaration: source,
      ExportAllDeclaration: source,
      ImportExpression: source,
      TSImportType: source,
      TSExternalModuleReference(node) {
        const s = stringOf(node.expression);
        if (s !== undefined) check(node.expression, s);
      },
      NewExpression(node) {
        // new URL('./x.worker.ts', import.meta.url): how a module worker is loaded
        if (node.callee.type !== 'Identifier' || node.callee.name !== 'URL') return;
        if (!isImportMeta(node.arguments[1], 'url')) return;
        const s = stringOf(node.arguments[0]);
        if (s !== undefined) check(node.arguments[0], s);
      },
      CallExpression(node) {
        if (!isImportMeta(node.callee, 'glob')) return;
        const arg = node.arguments[0];
        const patterns = arg?.type === 'ArrayExpression' ? arg.elements : [arg];
        for (const p of patterns) {
          const s = stringOf(p);
          if (s !== undefined) check(p, s);
        }
      },
    };
  },
};

/** The local plugin: `handy/boundaries`. */
export default { meta: { name: 'handy' }, rules: { boundaries: rule } };
