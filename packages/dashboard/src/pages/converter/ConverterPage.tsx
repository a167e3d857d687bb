import { useEffect, useEffectEvent, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { PLAN_ACCESS_MESSAGES, type ConversionKind } from '@aabify/shared';
import { conversionApi } from '../../api/conversions';
import { isApiRequestError } from '../../api/client';
import { newQueuedConversion } from '../../lib/conversion';
import { conversionKindOf } from '../../lib/apkFile';
import { KindBadge } from '../../components/KindBadge';
import { VersionCodeOption, versionCodeOption, type VersionCodeChoice } from './VersionCodeOption';
import { ApksOutputOption, apksOutputOptions, type ApksOutputChoice } from './ApksOutputOption';
import { uploadErrorMessage, UPLOAD_FAILED } from '../../lib/errors';
import { trackerState } from '../../lib/tracker';
import { useConversions } from '../../stores/conversions';
import { useKeystore } from '../../stores/keystore';
import { useUsage, useUsagePolling } from '../../stores/planAccess';
import { isAdmin, useSession } from '../../stores/session';
import { toast } from '../../stores/toasts';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { ProgressMeter } from '../../components/ProgressMeter';
import { DropZone } from './DropZone';
import { lastUpload } from './lastUpload';
import { Tracker } from './Tracker';
import { useLiveConversion } from './useLiveConversion';

export const READY_TEXT = 'Pronto para conversão';
export const SIGN_TEXTS = {
  label: 'Assinar o AAB com minha chave de upload',
  stored: (alias: string) => `O AAB sai assinado com a chave "${alias}", pronto para enviar ao Google Play.`,
  unticked: 'O AAB sai sem assinatura: o Google Play só o aceita depois de assinado com a sua chave de upload.',
  missing: 'Para assinar o AAB e enviá-lo direto ao Google Play, cadastre antes sua chave de upload.',
  missingLink: 'Cadastrar chave de upload',
} as const;

/** The same option for AAB → APK: without the upload key, the APK is signed with the test key, and said so. */
export const APK_SIGN_TEXTS = {
  label: 'Assinar o APK com minha chave de upload',
  stored: (alias: string) => `O APK sai assinado com a chave "${alias}".`,
  unticked: 'Desmarcado, o APK sai assinado com a chave de teste do aabify: só para instalar e testar, NUNCA para o Google Play.',
  missing:
    'Sem a sua chave de upload, o APK sai assinado com a chave de teste do aabify: serve só para instalar e testar no celular, NUNCA para o Google Play. Para assinar com a sua chave, cadastre-a antes.',
  missingLink: 'Cadastrar chave de upload',
} as const;

export const KIND_TEXTS = {
  aabChosen: 'AAB → APK: o bundle enviado vira um APK universal, que instala em qualquer aparelho compatível, ou o conjunto de APKs de um aparelho.',
  startAab: 'Gerar APK',
  startApk: 'Converter para AAB',
} as const;

/** 'Assinar o AAB (APK) com minha chave de upload': enabled only when the account has a keystore, ticked unless the customer unticks it. */
function SignOption({ checked, onChange, disabled, kind }: { checked: boolean; onChange(next: boolean): void; disabled: boolean; kind: ConversionKind }) {
  const { status, keystore } = useKeystore();
  const available = status === 'ready' && keystore !== null;
  const texts = kind === 'aab-to-apks' ? APK_SIGN_TEXTS : SIGN_TEXTS;
  return (
    <div className="mt-3" data-testid="sign-option">
      <Form.Check
        type="checkbox"
        id="sign-aab"
        label={texts.label}
        checked={available && checked}
        disabled={!available || disabled}
        onChange={(e) => onChange(e.currentTarget.checked)}
        aria-describedby="sign-aab-help"
      />
      {available ? (
        <Form.Text id="sign-aab-help" muted data-testid="sign-hint">
          {checked ? texts.stored(keystore.alias) : texts.unticked}
        </Form.Text>
      ) : status === 'ready' || status === 'error' ? (
        <Form.Text id="sign-aab-help" muted data-testid="sign-hint">
          {texts.missing} <Link to="/account/keystore">{texts.missingLink}</Link>
        </Form.Text>
      ) : (
        // While the keystore is asked for, the commoner hint's room, unseen: the button below
        // does not move when the answer comes (no layout shift, and the first paint is the final one).
        <Form.Text muted className="invisible" aria-hidden="true">
          {texts.missing} <span className="text-decoration-underline">{texts.missingLink}</span>
        </Form.Text>
      )}
    </div>
  );
}

/** Whether usage allows a conversion; the reason otherwise. */
function blockedReason(usage: ReturnType<typeof useUsagePolling>, admin: boolean): string | undefined {
  if (admin || !usage || usage.canConvert) return undefined;
  const credit = usage.type === 'credit' || usage.usageSummary?.userType === 'credit';
  return credit ? PLAN_ACCESS_MESSAGES.notEnoughCreditsForConversion : PLAN_ACCESS_MESSAGES.expired;
}

/** Router state of /converter: a fresh start (no resume), or the files to send again. */
export interface ConverterEntryState {
  fresh?: boolean;
  retryFiles?: File[];
}

/**
 * /converter: choose an APK and send it; the conversion then has its own page
 * (/conversions/:id), which this page opens on submission. A conversion already running (this
 * account, another tab or browser) is resumed by opening its page, unless the person came here
 * to start a new one ('Nova Conversão').
 */
export default function ConverterPage() {
  const user = useSession((s) => s.user);
  const usage = useUsagePolling();
  const navigate = useNavigate();
  const location = useLocation();
  const entry = (location.state ?? {}) as ConverterEntryState;
  const { phase, uploadProgress, uploadFileName } = useConversions();
  const [files, setFiles] = useState<File[] | null>(entry.retryFiles ?? null);
  const [startError, setStartError] = useState<string | null>(null);
  const [versionCode, setVersionCode] = useState<VersionCodeChoice>({ mode: 'keep' });
  const [apksOutput, setApksOutput] = useState<ApksOutputChoice>({ output: 'universal' });
  const hasKeystore = useKeystore((s) => s.status === 'ready' && s.keystore !== null);
  // Null until the customer ticks or unticks it: with a key stored, signing is the default.
  const [signChoice, setSign] = useState<boolean | null>(null);
  const sign = signChoice ?? hasKeystore;
  const upload = useRef<AbortController | null>(null);
  useLiveConversion({
    onAdopt: entry.fresh || entry.retryFiles ? undefined : (view) => navigate(`/conversions/${view.id}`, { replace: true }),
  });

  // The page's state belongs to one user: another user signing in starts from scratch.
  useEffect(() => {
    useConversions.getState().setOwner(user?.id ?? null);
    if (useConversions.getState().phase !== 'uploading') useConversions.getState().reset();
  }, [user?.id]);
  useEffect(() => () => upload.current?.abort(), []);
  useEffect(() => {
    void useKeystore.getState().ensureLoaded();
  }, [user?.id]);

  const start = async (chosen: File[] | null = files) => {
    if (!chosen || chosen.length === 0) return;
    const first = chosen.find((f) => !/\.obb$/i.test(f.name)) ?? chosen[0]!;
    const total = chosen.reduce((n, f) => n + f.size, 0);
    const kind = conversionKindOf(chosen);
    const blocked = blockedReason(usage, isAdmin(user));
    if (blocked) {
      setStartError(blocked);
      toast.error(blocked);
      return;
    }
    // The versionCode shapes an AAB; an AAB → APK conversion takes only the signing choice.
    const version = kind === 'apk-to-aab' ? versionCodeOption(versionCode) : { ok: true as const };
    if (!version.ok) {
      setStartError(version.error);
      return;
    }
    // What to build from an AAB: the universal APK (no option) or a device profile's set.
    const built = kind === 'aab-to-apks' ? apksOutputOptions(apksOutput) : {};
    const options = { ...(sign && hasKeystore ? { sign: true } : {}), ...(version.versionCode !== undefined ? { versionCode: version.versionCode } : {}), ...built };
    setStartError(null);
    useConversions.getState().startUpload(chosen.length === 1 ? first.name : `${first.name} (+${chosen.length - 1})`);
    const ctrl = new AbortController();
    upload.current = ctrl;
    try {
      const res = await conversionApi.convert(
        chosen,
        (sent, total) => useConversions.getState().setUploadProgress(total ? Math.round((sent / total) * 100) : 0),
        ctrl.signal,
        options,
      );
      const view = newQueuedConversion(res.conversionId, res.fileName ?? first.name, res.fileSize ?? total, {
        kind,
        ...built,
        queuePosition: res.queuePosition,
        estimatedTime: res.estimatedTime,
      });
      lastUpload.remember(view.id, chosen);
      useConversions.getState().track(view);
      setFiles(null);
      // Credits change once a conversion is submitted.
      void useUsage.getState().load();
      void useSession.getState().refreshUser();
      navigate(`/conversions/${view.id}`);
    } catch (e) {
      if (ctrl.signal.aborted) return;
      useConversions.getState().uploadFailed();
      // The keystore was removed elsewhere (400 on options.sign): the checkbox follows.
      if (isApiRequestError(e) && e.fields?.['options.sign']) void useKeystore.getState().load();
      const message = isApiRequestError(e) ? uploadErrorMessage(e) : UPLOAD_FAILED;
      setStartError(message);
      toast.error(message);
    }
  };

  // 'Tentar Novamente' on a failed conversion's page sends the same files again.
  const retried = useRef(false);
  const retry = useEffectEvent((retryFiles: File[]) => void start(retryFiles));
  useEffect(() => {
    if (entry.retryFiles && !retried.current) {
      retried.current = true;
      retry(entry.retryFiles);
    }
  }, [entry.retryFiles]);

  const cancelUpload = () => {
    upload.current?.abort();
    useConversions.getState().reset();
  };

  const busy = phase === 'uploading';
  const kind = files ? conversionKindOf(files) : 'apk-to-aab';
  return (
    <>
      <PageHeader
        title="Converter APK em AAB"
        actions={
          <Link to="/history" className="btn btn-outline-secondary btn-sm">
            <Icon name="clock-history" className="me-1" />
            Ver Histórico
          </Link>
        }
      />
      <Card className="mb-3">
        <Card.Body>
          <Tracker state={trackerState(busy ? 'uploading' : undefined)} />
        </Card.Body>
      </Card>

      {!busy && (
        <Card className="mb-3">
          <Card.Body>
            <p className="lead mb-3" data-testid="ready">
              {READY_TEXT}
            </p>
            <DropZone
              files={files}
              disabled={busy}
              onFiles={(f) => {
                setFiles(f);
                setStartError(null);
              }}
            />
            {files && kind === 'aab-to-apks' && (
              <p className="mt-3 mb-0 small" data-testid="kind-chosen">
                <KindBadge kind={kind} /> {KIND_TEXTS.aabChosen}
              </p>
            )}
            {kind === 'aab-to-apks' && <ApksOutputOption choice={apksOutput} onChange={setApksOutput} disabled={busy} />}
            <SignOption checked={sign} onChange={setSign} disabled={busy} kind={kind} />
            {kind === 'apk-to-aab' && <VersionCodeOption choice={versionCode} onChange={setVersionCode} disabled={busy} />}
            {startError && (
              <Alert variant="danger" className="mt-3 mb-0" data-testid="start-error">
                {startError}
              </Alert>
            )}
            <div className="d-flex flex-wrap gap-2 mt-3">
              <Button onClick={() => void start()} disabled={!files || busy} data-testid="start-conversion">
                {kind === 'aab-to-apks' ? KIND_TEXTS.startAab : KIND_TEXTS.startApk}
              </Button>
            </div>
          </Card.Body>
        </Card>
      )}

      {busy && (
        <Card className="mb-3" data-testid="uploading">
          <Card.Body>
            <div className="d-flex align-items-center gap-2 mb-2 min-w-0">
              <Spinner size="sm" aria-hidden="true" />
              <span className="min-w-0">
                Enviando <strong className="text-break-word">{uploadFileName}</strong>…
              </span>
            </div>
            <ProgressMeter now={uploadProgress} status="processing" label="Progresso do envio" />
            <Button variant="outline-secondary" size="sm" className="mt-3" onClick={cancelUpload}>
              Cancelar envio
            </Button>
          </Card.Body>
        </Card>
      )}
    </>
  );
}
