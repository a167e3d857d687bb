/**
 * A conversion's log as its owner reads it: sizes in pt-BR instead of byte counts, and the
 * files named after what was uploaded — never the stored copy (`input.apk`) nor the engine's
 * `container!entry` notation.
 */
import { expect } from 'chai';
import { formatBytes } from '@aabify/shared';
import { buildZip, tinyApkEntries, tinyManifest } from '../../converter/test/helpers/zipBuilder.js';
import { readableLogMessage } from '../src/conversions/logText.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { api } from './helpers/http.js';
import { buildCreditUser, tokenFor } from './helpers/factories.js';
import { conversionIdOf, uploadBytes, waitForStatus } from './helpers/conversions.js';

describe('conversion log wording', function () {
  this.timeout(120_000);

  describe('readableLogMessage', () => {
    const names = { fileName: 'Meu App Ação.apks', others: ['extra (1).apk'] };

    it('byteCounts_becomeSizesInPtBr', () => {
      expect(readableLogMessage('AAB gravado: 1278851 bytes', null)).to.equal(`AAB gravado: ${formatBytes(1278851)}`);
      expect(readableLogMessage('Arquivo recebido: a.apk (44 Bytes)', null)).to.equal('Arquivo recebido: a.apk (44 bytes)');
      expect(readableLogMessage('APK aberto: 12 arquivos, 2048 bytes', null)).to.equal('APK aberto: 12 arquivos, 2 KB');
    });

    it('storedCopyAndContainerNotation_becomeTheUploadedNames', () => {
      expect(readableLogMessage('input.apk!splits/base-master.apk → módulo "base" (master)', names)).to.equal('Meu App Ação.apks › splits/base-master.apk → módulo "base" (master)');
      expect(readableLogMessage('abrir /var/lib/aabify/storage/conversions/1f/input.apk: ENOENT', names)).to.equal('abrir Meu App Ação.apks: ENOENT');
      expect(readableLogMessage('extra (1).apk!lib.apk e Meu App Ação.apks!a.apk', names)).to.equal('extra (1).apk › lib.apk e Meu App Ação.apks › a.apk');
      // Names that look like replacement patterns are taken literally.
      expect(readableLogMessage('input.apk!a.apk', { fileName: '$&$1.apk', others: [] })).to.equal('$&$1.apk › a.apk');
      // Without names (an unknown conversion), only the sizes change.
      expect(readableLogMessage('input.apk!a.apk', null)).to.equal('input.apk!a.apk');
    });
  });

  describe('through the server', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer();
    });
    after(async () => server?.stop());

    it('splitSetUpload_logNamesTheUploadAndSaysSizes', async () => {
      const user = await buildCreditUser(server, 2);
      const token = tokenFor(server, user);
      const abiSplit = buildZip([
        { name: 'AndroidManifest.xml', data: tinyManifest({ versionCode: 1, split: 'config.x86_64' }) },
        { name: 'lib/x86_64/libfoo.so', data: Buffer.alloc(4096, 9), method: 0 },
      ]);
      const set = buildZip([
        { name: 'manifest.json', data: '{"package_name":"com.example.tiny"}' },
        { name: 'base.apk', data: buildZip(tinyApkEntries()), method: 0 },
        { name: 'split_config.x86_64.apk', data: abiSplit, method: 8 },
      ]);
      const res = await uploadBytes(server, token, set, { fileName: 'Conjunto Ação.xapk' });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const id = conversionIdOf(res);
      await waitForStatus(server, token, id, ['completed']);
      const logs = await api(server).get<{ logs: { message: string }[] }>(`/conversion/logs/${id}`, token);
      const text = logs.body.logs.map((l) => l.message);
      expect(text).to.include(`Arquivo recebido: Conjunto Ação.xapk (${formatBytes(set.length)})`);
      expect(text).to.include('Conjunto Ação.xapk › base.apk → módulo "base" (master)');
      expect(text.join('\n')).to.not.match(/input\.apk|\.apk!|\d bytes/);
    });
  });
});
