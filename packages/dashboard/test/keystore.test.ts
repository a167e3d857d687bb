import { expect } from 'chai';
import { KEYSTORE_LIMITS } from '@aabify/shared';
import {
  bytesToBase64,
  checkKeystoreFile,
  KEYSTORE_ERROR_MESSAGES,
  KEYSTORE_FORM_MESSAGES,
  keystoreFieldErrors,
  keystoreFormSchema,
} from '../src/lib/keystore';
import { readSignature } from '../src/pages/converter/DeviceSavings';

const file = (name: string, size = 2000) => ({ name, size, type: '' });

describe('upload keystore form (/account/keystore)', () => {
  it('errorMessages_theEnginesPtBrMessages', () => {
    // The same texts as @aabify/converter's CONVERTER_ERRORS (docs/signing.md "Sign a conversion on your machine (CLI)"), used when the server sends none.
    expect(KEYSTORE_ERROR_MESSAGES).to.include({
      BAD_KEYSTORE: 'O keystore de assinatura é inválido ou está corrompido.',
      KEYSTORE_PASSWORD: 'Senha do keystore incorreta.',
      KEYSTORE_ALIAS: 'Alias não encontrado no keystore.',
    });
    expect(Object.keys(KEYSTORE_ERROR_MESSAGES)).to.include.members(['KEYSTORE_ITERATIONS', 'KEYSTORE_TOO_MANY_ENTRIES', 'KEYSTORE_TOO_LARGE']);
  });

  it('keystoreFieldErrors_capCodes_pointAtTheFile', () => {
    expect(keystoreFieldErrors({ status: 422, code: 'KEYSTORE_ITERATIONS' })).to.deep.equal({ file: KEYSTORE_ERROR_MESSAGES.KEYSTORE_ITERATIONS });
    expect(keystoreFieldErrors({ status: 422, code: 'KEYSTORE_TOO_MANY_ENTRIES', message: 'x' })).to.deep.equal({ file: 'x' });
  });

  it('checkKeystoreFile_missingWrongExtensionEmptyOrTooLarge_firstProblem', () => {
    expect(checkKeystoreFile(null)).to.equal(KEYSTORE_FORM_MESSAGES.fileRequired);
    expect(checkKeystoreFile(file('upload.pem'))).to.equal(KEYSTORE_FORM_MESSAGES.fileExtension);
    expect(checkKeystoreFile(file('upload.p12', 0))).to.equal(KEYSTORE_FORM_MESSAGES.fileEmpty);
    expect(checkKeystoreFile(file('upload.jks', KEYSTORE_LIMITS.maxBytes + 1))).to.equal(KEYSTORE_FORM_MESSAGES.fileTooLarge);
    for (const ok of ['a.p12', 'A.PFX', 'a.jks', 'a.keystore']) expect(checkKeystoreFile(file(ok))).to.equal(undefined);
  });

  it('keystoreFormSchema_emptyForm_fileAndPasswordRequiredInPtBr', async () => {
    const errors = await keystoreFormSchema
      .validate({ file: null, alias: '', storePassword: '', keyPassword: '' }, { abortEarly: false })
      .then(() => [] as string[], (e: { errors: string[] }) => e.errors);
    expect(errors).to.have.members([KEYSTORE_FORM_MESSAGES.fileRequired, KEYSTORE_FORM_MESSAGES.passwordRequired]);
    await keystoreFormSchema.validate({ file: file('a.p12'), alias: '', storePassword: 'x', keyPassword: '' });
  });

  it('keystoreFieldErrors_engineCodes_landOnTheirFields', () => {
    expect(keystoreFieldErrors({ status: 422, code: 'BAD_KEYSTORE', message: 'O keystore de assinatura é inválido ou está corrompido.' })).to.deep.equal({
      file: 'O keystore de assinatura é inválido ou está corrompido.',
    });
    expect(keystoreFieldErrors({ status: 422, code: 'KEYSTORE_PASSWORD' })).to.deep.equal({ storePassword: 'Senha do keystore incorreta.' });
    expect(keystoreFieldErrors({ status: 422, code: 'KEYSTORE_PASSWORD' }, { keyPassword: 'k' })).to.deep.equal({
      storePassword: 'Senha do keystore incorreta.',
      keyPassword: 'Senha do keystore incorreta.',
    });
    expect(keystoreFieldErrors({ status: 422, code: 'KEYSTORE_ALIAS', message: 'Alias não encontrado no keystore.', details: 'aliases com chave: upload' })).to.deep.equal({
      alias: 'Alias não encontrado no keystore. (aliases com chave: upload)',
    });
    expect(keystoreFieldErrors({ status: 400, code: 'VALIDATION_ERROR', fields: { keystore: 'x', storePassword: 'y' } })).to.deep.equal({ file: 'x', storePassword: 'y' });
    expect(keystoreFieldErrors({ status: 500 })).to.deep.equal({});
  });

  it('bytesToBase64_largeAndSmall_matchesNode', () => {
    const bytes = new Uint8Array(70000).map((_, i) => (i * 7) % 256);
    expect(bytesToBase64(bytes)).to.equal(Buffer.from(bytes).toString('base64'));
    expect(bytesToBase64(new Uint8Array([1]))).to.equal('AQ==');
  });

  it('readSignature_statusWithSignedReport_aliasAndFingerprint', () => {
    expect(readSignature({ report: { signature: { alias: 'upload', certificateSha256: 'AB:CD', notAfter: '2050-01-01T00:00:00.000Z' } } })).to.deep.equal({
      alias: 'upload',
      certificateSha256: 'AB:CD',
      notAfter: '2050-01-01T00:00:00.000Z',
    });
    expect(readSignature({ conversion: { report: { downloadSizes: [] } } })).to.equal(undefined);
    expect(readSignature(null)).to.equal(undefined);
  });
});
