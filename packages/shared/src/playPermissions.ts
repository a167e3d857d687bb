/**
 * Permissions Google Play restricts, or asks a declaration for in Play Console before a release
 * that requests them goes out: the one table the engine's check and the pre-publication
 * checklist read (docs/checks.md explains each policy). Each row names the policy as Play Console
 * shows it and links Google's page; all read 2026-11-27.
 *
 * `names` are full permission names as a manifest's <uses-permission android:name> spells them,
 * or what a <service android:permission> requires (accessibility and VPN services are declared
 * that way, not requested).
 */
export interface RestrictedPermission {
  /** What Play calls the policy (pt-BR). */
  policy: string;
  names: readonly string[];
  /** What Play Console asks for (pt-BR, one sentence). */
  asks: string;
  link: string;
}

export const PLAY_RESTRICTED_PERMISSIONS: readonly RestrictedPermission[] = [
  // "Use of SMS or Call Log permission groups": only default SMS/Phone/Assistant handlers and the
  // listed exceptions; Permissions Declaration Form.
  {
    policy: 'SMS e registro de chamadas',
    names: [
      'android.permission.READ_SMS',
      'android.permission.SEND_SMS',
      'android.permission.WRITE_SMS',
      'android.permission.RECEIVE_SMS',
      'android.permission.RECEIVE_MMS',
      'android.permission.RECEIVE_WAP_PUSH',
      'android.permission.READ_CALL_LOG',
      'android.permission.WRITE_CALL_LOG',
      'android.permission.PROCESS_OUTGOING_CALLS',
    ],
    asks: 'só apps cujo uso principal é SMS ou telefone (ou as exceções da política), com o Formulário de declaração de permissões',
    link: 'https://support.google.com/googleplay/android-developer/answer/10208820',
  },
  // "Use of All files access (MANAGE_EXTERNAL_STORAGE) permission": file managers, backup,
  // antivirus, document management…; Permissions Declaration Form.
  {
    policy: 'Acesso a todos os arquivos',
    names: ['android.permission.MANAGE_EXTERNAL_STORAGE'],
    asks: 'só quando o uso principal do app exige acesso amplo ao armazenamento, com o Formulário de declaração de permissões',
    link: 'https://support.google.com/googleplay/android-developer/answer/10467955',
  },
  // "Use of the broad package (App) visibility (QUERY_ALL_PACKAGES) permission".
  {
    policy: 'Visibilidade de todos os pacotes',
    names: ['android.permission.QUERY_ALL_PACKAGES'],
    asks: 'só quando o app precisa ver todos os apps instalados para funcionar (use <queries> nos demais casos), com o Formulário de declaração de permissões',
    link: 'https://support.google.com/googleplay/android-developer/answer/10158779',
  },
  // "Access to location in the background": a declaration, a video and a prominent disclosure.
  {
    policy: 'Localização em segundo plano',
    names: ['android.permission.ACCESS_BACKGROUND_LOCATION'],
    asks: 'uma declaração em Conteúdo do app com vídeo do recurso e o aviso em destaque ao usuário',
    link: 'https://support.google.com/googleplay/android-developer/answer/9799150',
  },
  // "Use of the REQUEST_INSTALL_PACKAGES permission": sending or receiving packages and
  // user-initiated installs only.
  {
    policy: 'Instalação de pacotes',
    names: ['android.permission.REQUEST_INSTALL_PACKAGES'],
    asks: 'só quando instalar pacotes é função principal do app, com o Formulário de declaração de permissões',
    link: 'https://support.google.com/googleplay/android-developer/answer/12085295',
  },
  // "Understanding foreground service and full-screen intent requirements": full-screen intents
  // only for calls and alarms (Android 14 grants it to those only); a declaration in App content.
  {
    policy: 'Intents de tela cheia',
    names: ['android.permission.USE_FULL_SCREEN_INTENT'],
    asks: 'só apps de chamadas e de alarme, com a declaração de intents de tela cheia em Conteúdo do app',
    link: 'https://support.google.com/googleplay/android-developer/answer/13392821',
  },
  // "Exact alarm permission" policy: USE_EXACT_ALARM only for alarm-clock and calendar apps;
  // SCHEDULE_EXACT_ALARM is denied by default from Android 14 and asked of the user.
  {
    policy: 'Alarmes exatos',
    names: ['android.permission.USE_EXACT_ALARM', 'android.permission.SCHEDULE_EXACT_ALARM'],
    asks: 'USE_EXACT_ALARM só em apps de despertador e agenda (declaração em Conteúdo do app); SCHEDULE_EXACT_ALARM depende de o usuário autorizar',
    link: 'https://support.google.com/googleplay/android-developer/answer/12253906',
  },
  // "Details on Google Play's Photo and Video Permissions policy": broad access only after a
  // review; others use the system photo picker.
  {
    policy: 'Fotos e vídeos',
    names: ['android.permission.READ_MEDIA_IMAGES', 'android.permission.READ_MEDIA_VIDEO'],
    asks: 'só quando o uso principal exige acesso amplo à galeria, com a declaração em Conteúdo do app; os demais usam o seletor de fotos do sistema',
    link: 'https://support.google.com/googleplay/android-developer/answer/14115180',
  },
  // "Use of the AccessibilityService API": a prominent disclosure, consent and a declaration.
  {
    policy: 'API de acessibilidade',
    names: ['android.permission.BIND_ACCESSIBILITY_SERVICE'],
    asks: 'uma declaração em Conteúdo do app, com o aviso em destaque e o consentimento do usuário',
    link: 'https://support.google.com/googleplay/android-developer/answer/10964491',
  },
  // "VpnService" policy: only apps whose core functionality is a VPN; a declaration.
  {
    policy: 'VpnService',
    names: ['android.permission.BIND_VPN_SERVICE'],
    asks: 'só apps cuja função principal é VPN, com a declaração em Conteúdo do app',
    link: 'https://support.google.com/googleplay/android-developer/answer/12564964',
  },
  // Foreground service permissions (Device and Network Abuse policy, Android 14+): every
  // foreground service type used is declared in App content with a description and a video.
  {
    policy: 'Serviços em primeiro plano',
    names: [
      'android.permission.FOREGROUND_SERVICE_CAMERA',
      'android.permission.FOREGROUND_SERVICE_CONNECTED_DEVICE',
      'android.permission.FOREGROUND_SERVICE_DATA_SYNC',
      'android.permission.FOREGROUND_SERVICE_HEALTH',
      'android.permission.FOREGROUND_SERVICE_LOCATION',
      'android.permission.FOREGROUND_SERVICE_MEDIA_PLAYBACK',
      'android.permission.FOREGROUND_SERVICE_MEDIA_PROCESSING',
      'android.permission.FOREGROUND_SERVICE_MEDIA_PROJECTION',
      'android.permission.FOREGROUND_SERVICE_MICROPHONE',
      'android.permission.FOREGROUND_SERVICE_PHONE_CALL',
      'android.permission.FOREGROUND_SERVICE_REMOTE_MESSAGING',
      'android.permission.FOREGROUND_SERVICE_SPECIAL_USE',
      'android.permission.FOREGROUND_SERVICE_SYSTEM_EXEMPTED',
    ],
    asks: 'a declaração de serviços em primeiro plano em Conteúdo do app: para cada tipo, o que o serviço faz, o efeito de adiá-lo e um vídeo',
    link: 'https://support.google.com/googleplay/android-developer/answer/13392821',
  },
];

/** The policy row of a permission name, if Play restricts it. */
export function restrictedPermission(name: string): RestrictedPermission | undefined {
  return PLAY_RESTRICTED_PERMISSIONS.find((p) => p.names.includes(name));
}

/** A permission's short name for people: `android.permission.READ_SMS` → `READ_SMS`. */
export function shortPermissionName(name: string): string {
  return name.startsWith('android.permission.') ? name.slice('android.permission.'.length) : name;
}
