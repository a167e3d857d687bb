/**
 * 'Economia estimada por dispositivo' on the completed-conversion card: what Google Play would
 * deliver to three representative devices from the AAB, against the APK as it is (the engine's
 * report.downloadSizes, read from the conversion's status once it completes).
 */
import { useEffect, useState } from 'react';
import Table from 'react-bootstrap/Table';
import type { DeviceDownloadSizeJson } from '@aabify/shared';
import { conversionApi } from '../../api/conversions';
import { formatBytes } from '../../lib/format';

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

/** report.downloadSizes of a status answer (`{ report }` or `{ conversion: { report } }`). */
export function readDownloadSizes(raw: unknown): DeviceDownloadSizeJson[] {
  if (typeof raw !== 'object' || raw === null) return [];
  const r = raw as Record<string, unknown>;
  const source = (typeof r.conversion === 'object' && r.conversion !== null ? r.conversion : r) as Record<string, unknown>;
  const report = source.report as Record<string, unknown> | null | undefined;
  const sizes = report?.downloadSizes;
  return Array.isArray(sizes) ? sizes.filter(isSize) : [];
}

export function DeviceSavings({ conversionId }: { conversionId: string }) {
  const [sizes, setSizes] = useState<DeviceDownloadSizeJson[]>([]);
  useEffect(() => {
    let live = true;
    conversionApi
      .status(conversionId)
      .then((raw) => live && setSizes(readDownloadSizes(raw)))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [conversionId]);
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
