/**
 * `aabify inspect app.apk|set.apks|a.apk b.apk [--obb FILE] [--json]`: what the APK (or split set,
 * with OBB files) says — package, versions, SDK levels, ABIs, locales, densities, dex files,
 * sizes; for a set, its modules and each split; each OBB and whether it is named for this app —
 * read without converting anything.
 */
import { type Command } from 'commander';
import type { InputDescription } from '@aabify/converter';
import { downloadSizeLines } from '../signing.js';
import { EXIT_OK } from '../exitCodes.js';
import { formatApkFacts, formatBytes, reportFailure } from '../format.js';
import { writeJsonDocument } from '../jsonDocument.js';
import { sanitize } from '../safeText.js';

interface InspectOptions {
  json?: boolean;
  obb?: string[];
}

const KINDS: Record<string, string> = { base: 'base', feature: 'recurso (feature)', 'asset-pack': 'pacote de assets' };

/** The set's modules, splits and OBBs as pt-BR lines (nothing for a lone APK). */
export function setLines(info: InputDescription): string[] {
  const lines: string[] = [];
  if (info.container !== 'apk' || info.modules.length > 1 || info.splits.length > 0) {
    lines.push(`Conjunto: ${info.container}`, 'Módulos:');
    for (const m of info.modules) lines.push(`  - ${m.name}: ${KINDS[m.kind] ?? m.kind}${m.configs.length > 0 ? `; configurações: ${m.configs.join(', ')}` : ''}`);
    if (info.splits.length > 0) {
      lines.push('Splits:');
      for (const s of info.splits) lines.push(`  - ${s.source} → ${s.module} (${s.role})`);
    }
    if (info.ignored.length > 0) lines.push(`Ignorados (APKs standalone/universal do bundletool): ${info.ignored.join(', ')}`);
  }
  if (info.obbs.length > 0) {
    lines.push('OBB (viram pacotes de assets na conversão):');
    for (const o of info.obbs) {
      const what = o.kind ? `${o.kind}, versionCode ${o.versionCode}, pacote ${o.packageName}` : 'nome fora do padrão main|patch.<versionCode>.<pacote>.obb';
      lines.push(`  - ${o.name}: ${formatBytes(o.size)}; ${what}${o.matchesApp ? '' : ' — não parece ser deste app'}`);
    }
  }
  return lines;
}

export async function runInspect(inputs: string[], options: InspectOptions): Promise<void> {
  try {
    const { inspectApk } = await import('@aabify/converter');
    const info = await inspectApk(inputs, { downloadSizes: true, ...(options.obb ? { obb: options.obb } : {}) });
    if (options.json) {
      writeJsonDocument({ ok: true, apk: info });
    } else {
      const title = inputs.length === 1 ? `APK: ${inputs[0]}` : `Arquivos: ${inputs.join(', ')}`;
      // The APK's own strings (manifest, split and OBB names) are in these lines.
      process.stdout.write(`${sanitize([title, ...formatApkFacts(info), ...setLines(info), ...downloadSizeLines(info.downloadSizes)].join('\n'))}\n`);
    }
    process.exitCode = EXIT_OK;
  } catch (e) {
    reportFailure(e, options.json === true);
  }
}

export function register(program: Command): Command {
  return program
    .command('inspect')
    .description('mostra o que um APK ou conjunto de splits declara: pacote, versões, SDK, ABIs, idiomas, densidades, dex, módulos, splits, OBB e tamanhos')
    .argument('<arquivos...>', 'o APK, o conjunto de splits (.apks, .xapk, .apkm, .zip), vários APKs do mesmo app e arquivos .obb')
    .option('--obb <arquivo>', 'arquivo OBB a descrever; repetível', (v: string, prev: string[] = []) => [...prev, v])
    .option('--json', 'saída em JSON')
    .action((inputs: string[], options: InspectOptions) => runInspect(inputs, options));
}
