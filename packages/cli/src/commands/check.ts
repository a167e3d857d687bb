/**
 * `aabify check FILE... [--json] [--fail-on blocker|warning]`: the pre-publication checklist of
 * an APK, a split set (.apks, .xapk, .apkm, .zip or several APKs) or an .aab, without converting
 * it: what Google Play would refuse (a debuggable or test build, a low targetSdk, native
 * libraries not aligned to 16 KB, 32-bit-only native code, components without android:exported)
 * or ask about (restricted permissions, foreground service types), each with what to do. An
 * APK's signature and module sizes are the bundle's matter: `convert` reports them. With a Google
 * Play key (`--play-key` or AABIFY_PLAY_KEY), the versionCode is compared with the highest the
 * app already has on Play (a blocker when not greater).
 */
import { type Command } from 'commander';
import { versionCodeAgainstPlay } from '@aabify/shared/playChecklist';
import { usageError } from '../api/errors.js';
import { checklistExitCode, checklistLines, checklistOf, failOnDoc, parseFailOn, type FailOnLevel } from '../checklist.js';
import { highestVersionCodeWithKey, playKeyText } from '../publishing.js';
import { EXIT_CHECKLIST } from '../exitCodes.js';
import { formatRows, reportFailure } from '../format.js';
import { writeJsonDocument } from '../jsonDocument.js';
import { sanitize } from '../safeText.js';

interface CheckFlags {
  json?: boolean;
  failOn?: FailOnLevel;
  /** A Google Play key (file or JSON; else AABIFY_PLAY_KEY): the versionCode is compared with Play's highest. */
  playKey?: string;
  /** Confirms the app's package (the key's app on Play). */
  package?: string;
}

const KINDS: Record<string, string> = { aab: 'AAB', apk: 'APK', apks: 'conjunto .apks', xapk: 'conjunto .xapk', apkm: 'conjunto .apkm', zip: 'zip de APKs', files: 'vários APKs' };

export async function runCheck(inputs: string[], flags: CheckFlags): Promise<void> {
  const json = flags.json === true;
  try {
    const { checkApp } = await import('@aabify/converter');
    const app = await checkApp(inputs);
    if (flags.package !== undefined && flags.package !== app.packageName) {
      throw usageError(`--package ${flags.package} não é o pacote do app (${app.packageName}).`, 'PACKAGE_MISMATCH');
    }
    const key = await playKeyText({ playKey: flags.playKey });
    const highest = key ? { on: await highestVersionCodeWithKey(key, app.packageName) } : undefined;
    const checklist = checklistOf(app, app.notChecked, highest ? versionCodeAgainstPlay(app.versionCode, highest.on) : undefined);
    const facts = {
      packageName: app.packageName,
      versionName: app.versionName ?? null,
      versionCode: app.versionCode ?? null,
      minSdk: app.minSdk ?? null,
      targetSdk: app.targetSdk ?? null,
      abis: app.abis,
    };
    if (json) {
      writeJsonDocument({
        ok: true,
        inputs,
        container: app.container,
        app: facts,
        checklist,
        ...failOnDoc(checklist, flags.failOn),
        notChecked: app.notChecked,
        ...(highest ? { play: { highestVersionCode: highest.on ?? null } } : {}),
        warnings: app.warnings,
      });
    } else {
      const lines = [
        `${inputs.length === 1 ? inputs[0] : inputs.join(', ')} (${KINDS[app.container] ?? app.container})`,
        ...formatRows([
          ['Pacote', app.packageName],
          ['Versão', `${app.versionName ?? '—'} (código ${app.versionCode ?? '—'})`],
          ['SDK mínimo / alvo', `${app.minSdk ?? '—'} / ${app.targetSdk ?? '—'}`],
          ['ABIs', app.abis.length > 0 ? app.abis.join(', ') : 'nenhuma (sem código nativo)'],
        ]),
        ...checklistLines(checklist),
        ...(app.notChecked.length > 0 ? ['A assinatura e o tamanho dos módulos são do AAB: aabify convert os verifica.'] : []),
      ];
      // Names from the APK (package, libraries, components) are in these lines.
      process.stdout.write(`${sanitize(lines.join('\n'))}\n`);
    }
    process.exitCode = checklistExitCode(checklist, flags.failOn);
  } catch (e) {
    reportFailure(e, json);
  }
}

export function register(program: Command): Command {
  return program
    .command('check')
    .description('mostra o que o Google Play recusaria ou questionaria num APK, conjunto de splits ou AAB, sem converter')
    .argument('<arquivos...>', 'o APK, o conjunto de splits (.apks, .xapk, .apkm, .zip), vários APKs do mesmo app, ou um .aab')
    .option('--json', 'saída em JSON (checklist: [{ code, status, title, action }])')
    .option('--fail-on <nível>', `termina com código ${EXIT_CHECKLIST} se houver um item que impede a publicação (blocker) ou também um alerta (warning)`, parseFailOn)
    .option('--play-key <arquivo|json>', 'chave da conta de serviço do Google Play (ou AABIFY_PLAY_KEY): compara o versionCode com o maior já enviado ao Play')
    .option('--package <pacote>', 'confirma o pacote do app (o da chave no Google Play)')
    .action((inputs: string[], flags: CheckFlags) => runCheck(inputs, flags));
}
