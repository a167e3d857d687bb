/**
 * The manifest checks Google Play's upload (and Android's installer) would fail: a test build,
 * components with an intent-filter and no android:exported, permissions Play restricts, and
 * foreground services without the type (or its permission) Android 14 requires. They read each
 * module's manifest as proto XML — the same whether it came from an APK or from a bundle.
 * docs/checks.md has each rule and its source.
 */
import { PLAY_FINDINGS, PLAY_FINDING_MESSAGES } from '@aabify/shared/playCheckTexts';
import { restrictedPermission } from '@aabify/shared/playPermissions';
import type { PbXmlAttribute, PbXmlElement, PbXmlNode } from '../proto/aapt.js';
import type { ConversionWarning } from '../report.js';
import { ANDROID_NS } from '../bundle/layout.js';
import { application, booleanValue, children, stringValue } from '../validate/xml.js';

/** Framework attribute ids (android.R.attr). */
const ATTR = {
  name: 0x01010003,
  permission: 0x01010006,
  exported: 0x01010010,
  testOnly: 0x01010272,
  foregroundServiceType: 0x01010599,
} as const;

/** A code module's manifest (the base's, a feature's). */
export interface ModuleManifest {
  module: string;
  node: PbXmlNode;
}

/** The components Android 12 asks android:exported of when they have an intent-filter (providers are not among them). */
const EXPORTABLE = ['activity', 'activity-alias', 'service', 'receiver'];

/** foregroundServiceType flags (android.R.attr.foregroundServiceType) and the permission each needs from Android 14. */
const FOREGROUND_SERVICE_TYPES: ReadonlyArray<readonly [flag: number, name: string, permission: string | undefined]> = [
  [0x1, 'dataSync', 'FOREGROUND_SERVICE_DATA_SYNC'],
  [0x2, 'mediaPlayback', 'FOREGROUND_SERVICE_MEDIA_PLAYBACK'],
  [0x4, 'phoneCall', 'FOREGROUND_SERVICE_PHONE_CALL'],
  [0x8, 'location', 'FOREGROUND_SERVICE_LOCATION'],
  [0x10, 'connectedDevice', 'FOREGROUND_SERVICE_CONNECTED_DEVICE'],
  [0x20, 'mediaProjection', 'FOREGROUND_SERVICE_MEDIA_PROJECTION'],
  [0x40, 'camera', 'FOREGROUND_SERVICE_CAMERA'],
  [0x80, 'microphone', 'FOREGROUND_SERVICE_MICROPHONE'],
  [0x100, 'health', 'FOREGROUND_SERVICE_HEALTH'],
  [0x200, 'remoteMessaging', 'FOREGROUND_SERVICE_REMOTE_MESSAGING'],
  [0x400, 'systemExempted', 'FOREGROUND_SERVICE_SYSTEM_EXEMPTED'],
  [0x800, 'shortService', undefined],
  [0x2000, 'mediaProcessing', 'FOREGROUND_SERVICE_MEDIA_PROCESSING'],
  [0x40000000, 'specialUse', 'FOREGROUND_SERVICE_SPECIAL_USE'],
];

/** Intent actions of media-session services, which the media libraries start in the foreground while playing. */
const MEDIA_SERVICE_ACTIONS = ['android.media.browse.MediaBrowserService', 'androidx.media3.session.MediaSessionService', 'androidx.media3.session.MediaLibraryService'];

const PERMISSION_PREFIX = 'android.permission.';

/** An android: attribute by resource id, or by name when the compiler left the id out. */
function attr(el: PbXmlElement | undefined, id: number, name: string): PbXmlAttribute | undefined {
  return el?.attribute?.find((a) => a.resource_id === id) ?? el?.attribute?.find((a) => !a.resource_id && a.namespace_uri === ANDROID_NS && a.name === name);
}

function text(el: PbXmlElement | undefined, id: number, name: string): string | undefined {
  return stringValue(attr(el, id, name));
}

/** Flags as aapt2 compiles them (a hex integer), or from their names when left as text. */
function foregroundServiceFlags(el: PbXmlElement): number {
  const a = attr(el, ATTR.foregroundServiceType, 'foregroundServiceType');
  if (!a) return 0;
  const prim = a.compiled_item?.prim;
  const n = prim?.int_hexadecimal_value ?? prim?.int_decimal_value;
  if (n !== undefined) return n >>> 0;
  return (a.value ?? '').split('|').reduce((flags, word) => flags | (FOREGROUND_SERVICE_TYPES.find(([, type]) => type === word.trim())?.[0] ?? 0), 0);
}

/** A component's class name as Android resolves it (`.Main` and `Main` are in the app's package). */
function className(name: string | undefined, packageName: string): string {
  if (!name) return '(sem nome)';
  if (name.startsWith('.')) return `${packageName}${name}`;
  return name.includes('.') ? name : `${packageName}.${name}`;
}

function packageOf(node: PbXmlNode): string {
  return node.element?.attribute?.find((a) => a.name === 'package' && !a.namespace_uri)?.value ?? '';
}

function actionsOf(component: PbXmlElement): string[] {
  return children(component, 'intent-filter').flatMap((f) => children(f, 'action').map((a) => text(a, ATTR.name, 'name') ?? ''));
}

/** Every permission the app requests (all modules), full names. */
function requestedPermissions(manifests: readonly ModuleManifest[]): Set<string> {
  const names = new Set<string>();
  for (const { node } of manifests) {
    for (const tag of ['uses-permission', 'uses-permission-sdk-23']) {
      for (const el of children(node.element, tag)) {
        const name = text(el, ATTR.name, 'name');
        if (name) names.add(name);
      }
    }
  }
  return names;
}

/** Warnings for what Play (or Android, at install or at run time) would refuse in these manifests. */
export function manifestFindings(manifests: readonly ModuleManifest[]): ConversionWarning[] {
  const warnings: ConversionWarning[] = [];
  const packageName = manifests.length > 0 ? packageOf(manifests[0].node) : '';
  const apps = manifests.map((m) => ({ module: m.module, app: application(m.node) }));

  if (apps.some(({ app }) => booleanValue(attr(app, ATTR.testOnly, 'testOnly')) === true)) {
    warnings.push({ code: PLAY_FINDINGS.testOnly, message: PLAY_FINDING_MESSAGES.testOnly() });
  }

  const undeclared: { kind: string; name: string }[] = [];
  for (const { app } of apps) {
    for (const kind of EXPORTABLE) {
      for (const c of children(app, kind)) {
        if (children(c, 'intent-filter').length > 0 && !attr(c, ATTR.exported, 'exported')) undeclared.push({ kind, name: className(text(c, ATTR.name, 'name'), packageName) });
      }
    }
  }
  if (undeclared.length > 0) {
    warnings.push({ code: PLAY_FINDINGS.exportedUndeclared, message: PLAY_FINDING_MESSAGES.exportedUndeclared(undeclared), detail: undeclared.map((c) => c.name).join('\n') });
  }

  const requested = requestedPermissions(manifests);
  const services = apps.flatMap(({ app }) => children(app, 'service'));
  // Accessibility and VPN services are declared by the permission that binds them, not requested.
  const used = new Set([...requested, ...services.map((s) => text(s, ATTR.permission, 'permission') ?? '')]);
  const restricted = [...used].filter((n) => restrictedPermission(n) !== undefined).sort();
  if (restricted.length > 0) {
    warnings.push({ code: PLAY_FINDINGS.restrictedPermissions, message: PLAY_FINDING_MESSAGES.restrictedPermissions(restricted), detail: restricted.join('\n') });
  }

  const wantsForeground = [...requested].some((n) => n.startsWith(`${PERMISSION_PREFIX}FOREGROUND_SERVICE`));
  const typed = services.filter((s) => foregroundServiceFlags(s) !== 0);
  const needing: { name: string; why: string }[] = [];
  for (const s of services) {
    const name = className(text(s, ATTR.name, 'name'), packageName);
    const flags = foregroundServiceFlags(s);
    if (flags === 0) {
      const boundBySystem = (text(s, ATTR.permission, 'permission') ?? '').startsWith(`${PERMISSION_PREFIX}BIND_`);
      if (actionsOf(s).some((a) => MEDIA_SERVICE_ACTIONS.includes(a))) needing.push({ name, why: 'serviço de mídia sem o tipo mediaPlayback' });
      else if (wantsForeground && typed.length === 0 && !boundBySystem) needing.push({ name, why: 'sem tipo, e o app pede FOREGROUND_SERVICE' });
      continue;
    }
    for (const [flag, type, permission] of FOREGROUND_SERVICE_TYPES) {
      if (flags & flag && permission && !requested.has(`${PERMISSION_PREFIX}${permission}`)) needing.push({ name, why: `tipo ${type} sem a permissão ${permission}` });
    }
  }
  if (needing.length > 0) {
    warnings.push({ code: PLAY_FINDINGS.foregroundServiceType, message: PLAY_FINDING_MESSAGES.foregroundServiceType(needing), detail: needing.map((s) => `${s.name}: ${s.why}`).join('\n') });
  }
  return warnings;
}
