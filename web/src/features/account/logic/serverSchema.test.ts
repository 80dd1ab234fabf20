// The server keeps a schema for users/{uid} and history entries (internal/account/schema.go):
// these tests keep its table of preference values (internal/account/preferences.json) equal to
// the front end's own, and prove that the preferences its Go test accepts
// (internal/account/testdata/frontend_writes.json) are what the front end writes (the history
// entries there: features/history/logic/serverSchema.test.ts).
import { describe, expect, it } from 'vitest';
import serverValues from '../../../../../internal/account/preferences.json';
import frontEndWrites from '../../../../../internal/account/testdata/frontend_writes.json';
import { areaUnitIds } from '../../area/public';
import { distanceUnitOptions, speedUnitOptions } from '../../speed/public';
import { lengthUnits } from '../../../calculator/logic/length';
import { precisionChoices } from '../../../calculator/logic/precision';
import { toolSettings } from '../../../lib/preferences';
import { themeChoices } from '../../../theme/theme';
import { fromFields, type Fields } from '../../../sync/values';
import { prefsForm } from './prefsForm';
import { preferencesOf, readPreferences } from './savedPreferences';

const label = ((key: string) => key) as never;

describe("the server's preference values", () => {
  it('are the themes, units and decimals the front end offers', () => {
    expect(serverValues.themes).toEqual([...themeChoices]);
    expect(Object.keys(serverValues.tools).sort()).toEqual(Object.keys(toolSettings).sort());
    for (const [tool, settings] of Object.entries(toolSettings)) {
      expect(Object.keys(serverValues.tools[tool as keyof typeof serverValues.tools]).sort()).toEqual([...settings].sort());
    }
    const area = serverValues.tools['area-calculator'];
    expect(area.unit).toEqual(Object.keys(lengthUnits));
    expect(area.in).toEqual(['', ...areaUnitIds]);
    expect(area.dp).toEqual([...precisionChoices]);
    const speed = serverValues.tools['speed-calculator'];
    expect(speed.vu).toEqual(speedUnitOptions(label).map((o) => o.value));
    expect(speed.du).toEqual(distanceUnitOptions(label).map((o) => o.value));
    expect(speed.dp).toEqual([...precisionChoices]);
  });
});

describe('the preferences the server accepts (frontend_writes.json)', () => {
  it('are what preferencesOf writes', () => {
    const writes = frontEndWrites.filter((w) => w.path.split('/').length === 2);
    expect(writes.length).toBeGreaterThan(0);
    for (const w of writes) {
      const saved = readPreferences(fromFields(w.fields as unknown as Fields).preferences);
      expect(preferencesOf(prefsForm(saved, { theme: 'auto', language: 'en' }))).toEqual(saved);
    }
  });
});
