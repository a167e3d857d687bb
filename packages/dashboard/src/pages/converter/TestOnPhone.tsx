import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { formatBytes, TEST_APK_MESSAGES, type TestApkResponse } from '@aabify/shared';
import { api, isApiRequestError } from '../../api/client';

export const TEST_ON_PHONE_TEXTS = {
  button: 'Testar no celular',
  intro: 'Gera um APK universal deste AAB, como o bundletool do Google geraria, para instalar no celular antes de enviar ao Google Play.',
  download: 'Baixar APK',
  scan: 'Aponte a câmera do celular para o código para baixar o APK (o link vale por 1 hora):',
  noQr: 'Abra este link no celular para baixar o APK (vale por 1 hora):',
  install: 'No celular, permita a instalação de apps desta origem quando o Android pedir.',
} as const;

/**
 * "Testar no celular" on a finished conversion: asks the server for the universal APK of the AAB
 * (built once per signing key), then offers it as a download and, for the phone, as a QR code of
 * its short-lived link; which key signed it is said as the server says it.
 */
export function TestOnPhone({ conversionId }: { conversionId: string }) {
  const [state, setState] = useState<'idle' | 'building' | 'ready' | 'error'>('idle');
  const [apk, setApk] = useState<TestApkResponse | null>(null);
  const [error, setError] = useState<string | null>(null);

  const build = async () => {
    setState('building');
    setError(null);
    try {
      setApk(await api.post<TestApkResponse>(`/conversion/test-apk/${encodeURIComponent(conversionId)}`, undefined, { quiet: true }));
      setState('ready');
    } catch (e) {
      setError(isApiRequestError(e) ? e.message : TEST_APK_MESSAGES.failed);
      setState('error');
    }
  };

  const link = apk ? new URL(apk.downloadUrl, window.location.origin).href : '';
  return (
    <div className="mb-3" data-testid="test-on-phone">
      {state !== 'ready' && (
        <>
          <Button variant="outline-success" size="lg" onClick={build} disabled={state === 'building'} data-testid="test-on-phone-button">
            {state === 'building' && <Spinner size="sm" className="me-2" aria-hidden="true" />}
            {state === 'building' ? TEST_APK_MESSAGES.building : TEST_ON_PHONE_TEXTS.button}
          </Button>
          <div className="small text-body-secondary mt-1">{TEST_ON_PHONE_TEXTS.intro}</div>
        </>
      )}
      {state === 'error' && error && (
        <Alert variant="danger" className="mt-2 mb-0" role="alert" data-testid="test-apk-error">
          {error}
        </Alert>
      )}
      {state === 'ready' && apk && (
        <div className="border rounded p-3" data-testid="test-apk-ready">
          <Alert variant={apk.testKey ? 'warning' : 'info'} className="small" data-testid="test-apk-signer">
            {apk.message}
          </Alert>
          <div className="d-flex flex-wrap gap-3 align-items-center">
            {apk.qrCodePng && (
              <img
                src={`data:image/png;base64,${apk.qrCodePng}`}
                alt="Código QR do link do APK de teste"
                width={180}
                height={180}
                className="bg-white border rounded"
                data-testid="test-apk-qr"
              />
            )}
            <div>
              <p className="small mb-2">{apk.qrCodePng ? TEST_ON_PHONE_TEXTS.scan : TEST_ON_PHONE_TEXTS.noQr}</p>
              <p className="small text-break mb-2">
                <code data-testid="test-apk-link">{link}</code>
              </p>
              <a className="btn btn-success" href={link} download={apk.filename} data-testid="test-apk-download">
                {TEST_ON_PHONE_TEXTS.download} ({apk.filename}, {formatBytes(apk.fileSize)})
              </a>
              <div className="small text-body-secondary mt-2">{TEST_ON_PHONE_TEXTS.install}</div>
            </div>
          </div>
        </div>
      )}
    </div>
  );
}
