/**
 * Pre-publication checks of what Google Play refuses beyond the bundle's format: native
 * libraries (16 KB pages, 64-bit), test builds, exported components, restricted permissions,
 * foreground service types. They give warnings (pt-BR, from @aabify/shared/playCheckTexts) that
 * the report carries and the checklist turns into its rows; the same checks run on a conversion's
 * plan, on an APK or split set, and on an existing bundle (app.ts).
 */
import type { ModuleSummary, PlannedFile } from '../bundle/plan.js';
import { MANIFEST_PATH } from '../bundle/layout.js';
import type { PbXmlNode } from '../proto/aapt.js';
import type { ConversionWarning } from '../report.js';
import { manifestFindings, type ModuleManifest } from './manifestChecks.js';
import { nativeLibraryFindings, type NativeLibrary } from './nativeLibraries.js';

export type { ModuleManifest, NativeLibrary };

/** What the checks read: each code module's manifest, and the native libraries. */
export interface CheckSubject {
  manifests: ModuleManifest[];
  libraries: NativeLibrary[];
}

/** `lib/<abi>/<name>.so` in a module (or an APK). */
export const NATIVE_LIBRARY_PATH = /^lib\/([^/]+)\/[^/]+\.so$/;

export async function playFindings(subject: CheckSubject): Promise<ConversionWarning[]> {
  return [...(await nativeLibraryFindings(subject.libraries)), ...manifestFindings(subject.manifests)];
}

/** The subject of a planned bundle (its files still holding their proto messages). */
export function subjectOfPlan(files: readonly PlannedFile[], modules: readonly ModuleSummary[], signal?: AbortSignal): CheckSubject {
  const code = new Set(modules.filter((m) => m.kind !== 'asset-pack').map((m) => m.name));
  const manifests: ModuleManifest[] = [];
  const libraries: NativeLibrary[] = [];
  for (const f of files) {
    const slash = f.path.indexOf('/');
    const module = f.path.slice(0, slash);
    if (!code.has(module)) continue;
    const path = f.path.slice(slash + 1);
    if (path === MANIFEST_PATH && f.message) manifests.push({ module, node: f.message as PbXmlNode });
    const lib = NATIVE_LIBRARY_PATH.exec(path);
    const { source, reader } = f;
    if (lib && source && reader) libraries.push({ module, path, abi: lib[1], size: source.uncompressedSize, readHead: (n) => reader.readHead(source, n, { signal }) });
  }
  // The base first: its package names the components.
  manifests.sort((a, b) => (a.module === 'base' ? -1 : b.module === 'base' ? 1 : 0));
  return { manifests, libraries };
}
