/**
 * /conversions/:id — one conversion's own page: survives a reload, is linked from the history
 * and Admin › Conversões, and shows the live state (tracker, status, queue), the
 * pre-publication checklist and the result, and the log console. Admins open any customer's
 * conversion here for support (download only when the setting allows it).
 */
import { useEffect } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { conversionApi } from '../../api/conversions';
import { isApiRequestError } from '../../api/client';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { SkeletonRows } from '../../components/Skeleton';
import { conversionView } from '../../lib/conversion';
import { shortId } from '../../lib/format';
import { LOG_TEXTS } from '../../lib/logs';
import { trackerState } from '../../lib/tracker';
import { useKeyedState } from '../../lib/useKeyedState';
import { useConversions } from '../../stores/conversions';
import { useSession } from '../../stores/session';
import { toast } from '../../stores/toasts';
import { LogConsole } from '../converter/LogConsole';
import { QueueCard } from '../converter/QueueCard';
import { CompletedResult, FailedResult } from '../converter/ResultCard';
import { KindBadge } from '../../components/KindBadge';
import { StatusCard } from '../converter/StatusCard';
import { Tracker } from '../converter/Tracker';
import { lastUpload } from '../converter/lastUpload';
import { loadStoredLogs, useLiveConversion } from '../converter/useLiveConversion';
import { Publications } from './Publications';

export const CONVERSION_PAGE_TEXTS = {
  notFound: 'Conversão não encontrada',
  notFoundHelp: 'Ela não existe ou pertence a outra conta.',
  support: (email: string | null) => `Conversão de ${email ?? 'uma conta removida'} — aberta pelo suporte.`,
} as const;

type Load = 'loading' | 'ready' | 'missing';

export default function ConversionPage() {
  const { id = '' } = useParams();
  const user = useSession((s) => s.user);
  const navigate = useNavigate();
  const { current, live, lastUpdateAt } = useConversions();
  // Per conversion shown: ready at once when the converter handed it over.
  const [load, setLoad] = useKeyedState<Load>(id, useConversions.getState().current?.id === id ? 'ready' : 'loading');
  const liveConn = useLiveConversion();
  const [search] = useSearchParams();

  useEffect(() => {
    useConversions.getState().setOwner(user?.id ?? null);
  }, [user?.id]);

  // The conversion the converter handed over, or the one the URL names (a reload, a link).
  useEffect(() => {
    let alive = true;
    const store = useConversions.getState();
    if (store.current?.id === id) {
      liveConn.follow(store.current);
      return;
    }
    store.reset();
    conversionApi
      .status(id)
      .then((answer) => {
        if (!alive) return;
        const view = conversionView(answer);
        useConversions.getState().track(view);
        setLoad('ready');
        liveConn.follow(view);
        void loadStoredLogs(view.id);
      })
      .catch((e: unknown) => {
        if (!alive) return;
        setLoad('missing');
        if (!(isApiRequestError(e) && e.status === 404)) toast.error(isApiRequestError(e) ? e.message : 'Erro de Conexão');
      });
    return () => {
      alive = false;
      liveConn.stop();
    };
  }, [id, liveConn, setLoad]);

  const clearLogs = async (conversionId: string) => {
    try {
      await conversionApi.clearLogs(conversionId);
      useConversions.getState().clearLogs(conversionId);
      toast.success(LOG_TEXTS.cleared);
    } catch (e) {
      const server = isApiRequestError(e) ? e.serverMessage : undefined;
      toast.error(server ? `${LOG_TEXTS.clearFailed}: ${server}` : LOG_TEXTS.clearFailed);
    }
  };
  const newConversion = () => {
    liveConn.stop();
    useConversions.getState().reset();
    navigate('/converter', { state: { fresh: true } });
  };
  const retry = () => {
    const files = lastUpload.filesOf(id);
    liveConn.stop();
    useConversions.getState().reset();
    navigate('/converter', { state: files ? { retryFiles: files } : undefined });
  };

  const view = current?.id === id ? current : null;
  const actions = (
    <>
      <Link to="/history" className="btn btn-outline-secondary btn-sm">
        <Icon name="clock-history" className="me-1" />
        Ver Histórico
      </Link>
      <Button size="sm" onClick={newConversion}>
        <Icon name="plus-lg" className="me-1" />
        Nova Conversão
      </Button>
    </>
  );
  if (load === 'missing') {
    return (
      <>
        <PageHeader title={CONVERSION_PAGE_TEXTS.notFound} actions={actions} />
        <Alert variant="warning" data-testid="conversion-not-found">
          {CONVERSION_PAGE_TEXTS.notFoundHelp}
        </Alert>
      </>
    );
  }
  if (load === 'loading' || !view) {
    return (
      <>
        <PageHeader title="Conversão" actions={actions} />
        <SkeletonRows rows={5} testId="conversion-loading" />
      </>
    );
  }
  return (
    <div data-testid="conversion-page" data-conversion-id={view.id}>
      <PageHeader
        title={`Conversão ${shortId(view.id)}`}
        subtitle={
          <span className="text-break-word">
            {view.fileName} <KindBadge kind={view.kind} />
          </span>
        }
        actions={actions}
      />
      {view.support && (
        <Alert variant="info" className="py-2 text-break-word" data-testid="support-banner">
          <Icon name="info-circle-fill" className="me-2" />
          {CONVERSION_PAGE_TEXTS.support(view.support.ownerEmail)}
        </Alert>
      )}
      <Card className="mb-3">
        <Card.Body>
          <Tracker state={trackerState(view.status, view.queuePosition)} />
        </Card.Body>
      </Card>
      <StatusCard conversion={view} live={live} lastUpdateAt={lastUpdateAt} />
      <QueueCard conversion={view} />
      {view.status === 'failed' && <FailedResult conversion={view} onRetry={retry} onNew={newConversion} />}
      {view.status === 'completed' && <CompletedResult conversion={view} onNew={newConversion} />}
      {/* Only bundles are published on Google Play: an AAB → APK conversion made an APK. */}
      {view.status === 'completed' && view.kind !== 'aab-to-apks' && (
        <Publications conversionId={view.id} canPublish={!view.support} openOnLoad={search.get('publicar') === '1'} />
      )}
      <LogConsole conversionId={view.id} status={view.status} logs={view.logs} onClear={() => clearLogs(view.id)} />
    </div>
  );
}
