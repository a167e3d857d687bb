/**
 * The engine's report on the completed-conversion card, read from the conversion's status once
 * it completes: the upload-key signature (report.signature) when the AAB was signed, and
 * 'Economia estimada por dispositivo' — what Google Play would deliver to three representative
 * devices from the AAB, against the APK as it is (report.downloadSizes).
 */
import { formatBytes } from '@aabify/shared';
import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Table from 'react-bootstrap/Table';
import type { DeviceDownloadSizeJson } from '@aabify/shared';
import { conversionApi } from '../../api/conversions';
import { BundleModules, readModules } from './BundleModules';

export const DEVICE_SAVINGS_TEXTS = {
  title: 'Economia estimada por dispositivo',
  note: 'Estimativa do download compactado que o Google Play entrega a cada aparelho a partir do AAB, comparado ao APK atual.',
  incompatible: 'Sem bibliotecas nativas para esta arquitetura',
} as const;

function isSize(v: unknown): v is DeviceDownloadSizeJson {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.label === 'string' && typeof o.bundleBytes === 'number' && typeof o.apkBytes === 'number' && typeof o.savedPercent === 'number';
}

function reportOf(raw: unknown): Record<string, unknown> | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  const source = (typeof r.conversion === 'object' && r.conversion !== null ? r.conversion : r) as Record<string, unknown>;
  const report = source.report;
  return typeof report === 'object' && report !== null ? (report as Record<string, unknown>) : undefined;
}

/** report.downloadSizes of a status answer (`{ report }` or `{ conversion: { report } }`). */
export function readDownloadSizes(raw: unknown): DeviceDownloadSizeJson[] {
  const sizes = reportOf(raw)?.downloadSizes;
  return Array.isArray(sizes) ? sizes.filter(isSize) : [];
}

export interface SignatureFacts {
  alias: string;
  certificateSha256: string;
  notAfter?: string;
}

/** report.signature of a status answer, when the AAB was signed with the account's upload key. */
export function readSignature(raw: unknown): SignatureFacts | undefined {
  const sig = reportOf(raw)?.signature;
  if (typeof sig !== 'object' || sig === null) return undefined;
  const s = sig as Record<string, unknown>;
  if (typeof s.alias !== 'string' || typeof s.certificateSha256 !== 'string') return undefined;
  return { alias: s.alias, certificateSha256: s.certificateSha256, ...(typeof s.notAfter === 'string' ? { notAfter: s.notAfter } : {}) };
}

/** The signature note, the bundle's modules and the per-device table of a completed conversion (one status call). */
export function ReportDetails({ conversionId }: { conversionId: string }) {
  const [raw, setRaw] = useState<unknown>(undefined);
  useEffect(() => {
    let live = true;
    conversionApi
      .status(conversionId)
      .then((r) => live && setRaw(r))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [conversionId]);
  const signature = readSignature(raw);
  return (
    <>
      {signature && (
        <Alert variant="success" className="mt-4 mb-0 small" data-testid="result-signature">
          Assinado com a chave de upload <strong>{signature.alias}</strong> — SHA-256 <code className="text-break">{signature.certificateSha256}</code>
        </Alert>
      )}
      <BundleModules modules={readModules(raw)} />
      <DeviceSavings sizes={readDownloadSizes(raw)} />
    </>
  );
}

export function DeviceSavings({ sizes }: { sizes: DeviceDownloadSizeJson[] }) {
  if (sizes.length === 0) return null;
  return (
    <div className="mt-4" data-testid="device-savings">
      <h3 className="h6">{DEVICE_SAVINGS_TEXTS.title}</h3>
      <Table size="sm" responsive className="mb-1 small">
        <thead>
          <tr>
            <th>Dispositivo</th>
            <th className="text-end">Com o AAB</th>
            <th className="text-end">Com o APK</th>
            <th className="text-end">Economia</th>
          </tr>
        </thead>
        <tbody>
          {sizes.map((s) => (
            <tr key={s.deviceId ?? s.label}>
              <td>{s.label}</td>
              {s.compatible ? (
                <>
                  <td className="text-end">{formatBytes(s.bundleBytes)}</td>
                  <td className="text-end">{formatBytes(s.apkBytes)}</td>
                  <td className="text-end text-success">{s.savedPercent.toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%</td>
                </>
              ) : (
                <td colSpan={3} className="text-end text-body-secondary">
                  {DEVICE_SAVINGS_TEXTS.incompatible}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </Table>
      <p className="text-body-secondary small mb-0">{DEVICE_SAVINGS_TEXTS.note}</p>
    </div>
  );
}
