/**
 * Two fidelity gaps found on real apps, on fixtures compiled by Debian's aapt: (a) a manifest
 * attribute whose string holds backslashes (an intent filter's `android:pathPattern=".*\\.zip"`)
 * and (b) a compiled binary-XML resource whose file name has no `.xml` extension. Each goes
 * through convertApk, `bundletool build-apks --mode=universal`, and the universal APK must say
 * exactly what the fixture says (round-trip harness), the attribute string and the file's bytes
 * included.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertApk } from '../src/index.js';
import { requireOracles } from './helpers/oracles.js';
import { buildAaptApk } from './oracle/aaptFixture.js';
import { compareRoundTrip } from './oracle/roundTrip.js';
import { buildUniversalApk, dumpXmlTree, validateBundle } from './oracle/tools.js';
import { ZipArchive } from './oracle/zip.js';

const MANIFEST = `<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.fidelity"
    android:versionCode="3" android:versionName="1.0">
  <uses-sdk android:minSdkVersion="21" android:targetSdkVersion="29"/>
  <application android:label="@string/app" android:hasCode="false">
    <activity android:name=".Main">
      <intent-filter>
        <action android:name="android.intent.action.VIEW"/>
        <data android:scheme="file" android:host="*" android:pathPattern=".*\\\\.zip"/>
        <data android:pathPattern="a\\\\tb\\\\\\\\c\\&quot;d"/>
      </intent-filter>
    </activity>
  </application>
</manifest>
`;

const PREFERENCES = `<?xml version="1.0" encoding="utf-8"?>
<PreferenceScreen xmlns:android="http://schemas.android.com/apk/res/android">
  <SwitchPreference android:key="sync" android:title="@string/app"/>
</PreferenceScreen>
`;

describe('fidelity: backslashes in attribute strings, binary XML without .xml', function () {
  this.timeout(180_000);
  let work = '';
  after(() => work && rmSync(work, { recursive: true, force: true }));

  it('roundTrip_aaptFixture_pathPatternAndExtensionlessXmlComeBackExactly', async function () {
    const o = requireOracles(this, 'aapt', 'frameworkRes', 'java', 'bundletoolJar', 'aapt2');
    work = mkdtempSync(join(tmpdir(), 'aabify-fidelity-'));
    const apk = await buildAaptApk(o, work, {
      manifest: MANIFEST,
      res: {
        'values/strings.xml': '<resources><string name="app">Fidelity</string></resources>',
        'xml-v13/preference_switch': PREFERENCES,
      },
    });
    const source = ZipArchive.open(apk);
    const pref = source.entries.find((e) => e.name === 'res/xml-v13/preference_switch');
    expect(pref, 'aapt compiled res/xml-v13/preference_switch').to.not.equal(undefined);

    const aab = join(work, 'fixture.aab');
    const report = await convertApk(apk, aab);
    await validateBundle(o, aab);
    const universal = await buildUniversalApk(o, aab, join(work, 'universal'));

    expect(await compareRoundTrip({ aapt2: o.aapt2, source: apk, universal, warnings: report.warnings })).to.deep.equal([]);
    const patterns = (await dumpXmlTree(o.aapt2, universal, 'AndroidManifest.xml')).filter((l) => l.includes('pathPattern'));
    expect(patterns.map((l) => l.trim().replace(/^A: \S+:pathPattern\(0x0101002c\)=/, ''))).to.deep.equal([
      '".*\\.zip" (Raw: ".*\\.zip")',
      '"a\\tb\\\\c"d" (Raw: "a\\tb\\\\c"d")',
    ]);
    const out = ZipArchive.open(universal);
    const copied = out.entries.find((e) => e.name === 'res/xml-v13/preference_switch');
    expect(copied, 'res/xml-v13/preference_switch in the universal APK').to.not.equal(undefined);
    expect(out.read(copied!).equals(source.read(pref!)), 'res/xml-v13/preference_switch byte for byte').to.equal(true);
  });
});
