/**
 * The modules of the converted bundle on the completed-conversion card (report.modules): the
 * base, feature modules and asset packs, each with how Play delivers it and its compressed
 * size in the AAB — what Google Play's size limits are about (docs/split-inputs.md).
 */
import { formatBytes } from '@aabify/shared';
import Table from 'react-bootstrap/Table';
import type { ConversionModuleJson } from '@aabify/shared';

export const BUNDLE_MODULE_TEXTS = {
  title: 'Módulos do AAB',
  kinds: { base: 'Base', feature: 'Recurso (feature)', 'asset-pack': 'Pacote de assets' } as Record<string, string>,
  deliveries: { 'install-time': 'Na instalação', 'fast-follow': 'Logo após instalar', 'on-demand': 'Sob demanda', 'as-declared': 'Como declarado no split' } as Record<string, string>,
  note: 'Tamanhos comprimidos no AAB. O módulo base pode ter até 200 MB no Google Play; assets grandes vão em pacotes de assets.',
} as const;

function isModule(v: unknown): v is ConversionModuleJson {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.name === 'string' && typeof o.kind === 'string' && typeof o.sizeBytes === 'number' && typeof o.files === 'number';
}

/** report.modules of a status answer (`{ report }` or `{ conversion: { report } }`). */
export function readModules(raw: unknown): ConversionModuleJson[] {
  if (typeof raw !== 'object' || raw === null) return [];
  const r = raw as Record<string, unknown>;
  const source = (typeof r.conversion === 'object' && r.conversion !== null ? r.conversion : r) as Record<string, unknown>;
  const report = source.report as Record<string, unknown> | undefined;
  const modules = typeof report === 'object' && report !== null ? report.modules : undefined;
  return Array.isArray(modules) ? modules.filter(isModule) : [];
}

export function BundleModules({ modules }: { modules: ConversionModuleJson[] }) {
  // A plain one-module bundle says nothing the size cards do not: shown only with packs or features.
  if (modules.length < 2) return null;
  return (
    <div className="mt-4" data-testid="bundle-modules">
      <h3 className="h6">{BUNDLE_MODULE_TEXTS.title}</h3>
      <Table size="sm" responsive className="mb-1 small">
        <thead>
          <tr>
            <th>Módulo</th>
            <th>Tipo</th>
            <th>Entrega</th>
            <th className="text-end">Tamanho</th>
          </tr>
        </thead>
        <tbody>
          {modules.map((m) => (
            <tr key={m.name} data-testid={`bundle-module-${m.name}`}>
              <td>
                <code>{m.name}</code>
              </td>
              <td>{BUNDLE_MODULE_TEXTS.kinds[m.kind] ?? m.kind}</td>
              <td>{m.kind === 'base' ? BUNDLE_MODULE_TEXTS.deliveries['install-time'] : (BUNDLE_MODULE_TEXTS.deliveries[m.delivery ?? ''] ?? m.delivery ?? '—')}</td>
              <td className="text-end">{formatBytes(m.sizeBytes)}</td>
            </tr>
          ))}
        </tbody>
      </Table>
      <p className="text-body-secondary small mb-0">{BUNDLE_MODULE_TEXTS.note}</p>
    </div>
  );
}
