import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { DownloadButton } from '../../components/DownloadButton';
import { KindBadge } from '../../components/KindBadge';
import { ReportDetails } from './DeviceSavings';
import { TestOnPhone } from './TestOnPhone';
import { PlayChecklist } from '../conversion/PlayChecklist';
import { apksBuilt, type ConversionView } from '../../lib/conversion';
import { APKS_OUTPUT_TEXTS, formatBytes, formatPercent, isDeviceSet, outputFileName, retryMayHelp, TEST_APK_MESSAGES, type ApksReportJson } from '@aabify/shared';
import { formatDateTime, formatDuration, savings, shortId } from '../../lib/format';

export const RESULT_TEXTS = {
  failedTitle: 'Falha no processamento do arquivo',
  failedGeneric: 'Ocorreu um erro durante o processamento do arquivo',
  noCreditUsed: 'Nenhum crédito foi usado: uma conversão que falha não é cobrada.',
  retryWontHelp: 'Enviar o mesmo arquivo de novo falharia da mesma forma: corrija o APK (ou envie o conjunto completo) e converta outra vez.',
  completedBanner: 'Conversão concluída com sucesso!',
  downloadUnavailable: 'Download indisponível: o arquivo não está mais disponível para esta conversão.',
  supportNoDownload: 'Conversão de um cliente: o download dos arquivos de clientes está desativado (Configurações › Segurança).',
  linkExpires: 'Atenção: o link de download expira em 1 hora. Baixe o arquivo AAB agora.',
  linkExpiresApk: 'Atenção: o link de download expira em 1 hora. Baixe o arquivo APK agora.',
  apkReady: 'Seu arquivo APK está pronto.',
  aabReady: 'Seu arquivo AAB está pronto.',
} as const;

/** Which key signed an AAB → APK conversion's APK, said as plainly as "Testar no celular" says it. */
function ApkSignature({ apks }: { apks: ApksReportJson }) {
  const testKey = apks.signature.testKey;
  return (
    <Alert variant={testKey ? 'warning' : 'info'} className="small" data-testid="apk-signature">
      {testKey ? TEST_APK_MESSAGES.signedWithTestKey : TEST_APK_MESSAGES.signedWithUploadKey(apks.signature.alias)}
    </Alert>
  );
}

/** A failed conversion: what went wrong, that no credit was used, and a retry only when sending the file again can work. Without handlers (an admin reading a customer's conversion) no owner action shows. */
export function FailedResult({ conversion, onRetry, onNew }: { conversion: ConversionView; onRetry?: () => void; onNew?: () => void }) {
  const retry = retryMayHelp(conversion.errorCode);
  return (
    <Card className="mb-3 border-danger" data-testid="result-failed">
      <Card.Body>
        <h2 className="h5 text-danger">{RESULT_TEXTS.failedTitle}</h2>
        <p className="mb-2" data-testid="result-error">
          {conversion.error || RESULT_TEXTS.failedGeneric}
        </p>
        <p className="mb-2 small" data-testid="result-no-credit">
          {RESULT_TEXTS.noCreditUsed}
        </p>
        {!retry && (
          <p className="mb-2 small text-body-secondary" data-testid="result-retry-wont-help">
            {RESULT_TEXTS.retryWontHelp}
          </p>
        )}
        {(onRetry || onNew) && (
          <div className="d-flex flex-wrap gap-2 mt-3">
            {retry && onRetry && (
              <Button variant="danger" onClick={onRetry} data-testid="result-retry">
                Tentar Novamente
              </Button>
            )}
            {onNew && (
              <Button variant={retry ? 'outline-secondary' : 'primary'} onClick={onNew}>
                Nova Conversão
              </Button>
            )}
          </div>
        )}
      </Card.Body>
    </Card>
  );
}

function Info({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="d-flex justify-content-between gap-2 border-bottom py-1">
      <span className="text-body-secondary">{label}</span>
      <span className="text-end text-break" data-testid={testId}>
        {value}
      </span>
    </div>
  );
}

export function CompletedResult({ conversion, onNew }: { conversion: ConversionView; onNew?: () => void }) {
  const original = conversion.originalSize ?? conversion.fileSize;
  const final = conversion.convertedSize;
  const saved = savings(original, final);
  const duration =
    conversion.duration ??
    (conversion.processingStartedAt && conversion.completedAt ? Date.parse(conversion.completedAt) - Date.parse(conversion.processingStartedAt) : undefined);
  const apkKind = conversion.kind === 'aab-to-apks';
  const deviceSet = apkKind && isDeviceSet(conversion);
  return (
    <Card className="mb-3 border-success" data-testid="result-completed">
      <Card.Body>
        <Alert variant="success" className="mb-3">
          <strong>{RESULT_TEXTS.completedBanner}</strong> {deviceSet ? APKS_OUTPUT_TEXTS.ready : apkKind ? RESULT_TEXTS.apkReady : RESULT_TEXTS.aabReady} <KindBadge kind={conversion.kind} />
        </Alert>
        {conversion.checklist && <PlayChecklist checks={conversion.checklist} />}
        {conversion.apks && <ApkSignature apks={conversion.apks} />}
        <div className="d-flex flex-wrap gap-2 align-items-start mb-3">
          {conversion.canDownload ? (
            <DownloadButton conversionId={conversion.id} size="lg" kind={conversion.kind} {...(deviceSet ? { idleLabel: APKS_OUTPUT_TEXTS.download } : {})} />
          ) : (
            <Alert variant="secondary" className="mb-0" data-testid="download-unavailable">
              {conversion.support && !conversion.support.downloadAllowed ? RESULT_TEXTS.supportNoDownload : RESULT_TEXTS.downloadUnavailable}
            </Alert>
          )}
          {onNew && (
            <Button variant="outline-primary" size="lg" onClick={onNew}>
              Nova Conversão
            </Button>
          )}
        </div>
        {conversion.canDownload && !apkKind && <TestOnPhone conversionId={conversion.id} />}
        <Row className="g-4">
          <Col md={6}>
            <h3 className="h6">Arquivo</h3>
            <Info
              label="Nome"
              value={conversion.filename ?? outputFileName({ kind: conversion.kind ?? 'apk-to-aab', fileName: conversion.fileName, options: { output: conversion.output } })}
              testId="result-filename"
            />
            {apkKind && <Info label={APKS_OUTPUT_TEXTS.built} value={apksBuilt(conversion)} testId="result-built" />}
            {deviceSet && conversion.apks && (
              <Info label={APKS_OUTPUT_TEXTS.apksInSet} value={conversion.apks.apks.map((a) => a.path ?? a.name).join(', ')} testId="result-apks" />
            )}
            <Info label="Tamanho original" value={formatBytes(original)} />
            <Info label="Tamanho final" value={final !== undefined ? formatBytes(final) : '—'} testId="result-final-size" />
            {saved && <Info label="Economia" value={`${formatBytes(saved.bytes)} (${formatPercent(saved.percent)})`} testId="result-savings" />}
          </Col>
          <Col md={6}>
            <h3 className="h6">Detalhes do processo</h3>
            <Info label="Início" value={formatDateTime(conversion.processingStartedAt ?? conversion.createdAt)} />
            <Info label="Fim" value={formatDateTime(conversion.completedAt)} />
            <Info label="Duração" value={duration !== undefined ? formatDuration(duration) : '—'} />
            <Info label="ID" value={shortId(conversion.id)} />
          </Col>
        </Row>
        {!apkKind && <ReportDetails conversionId={conversion.id} />}
        {deviceSet ? (
          <div className="mt-4">
            <h3 className="h6">{APKS_OUTPUT_TEXTS.whatIsTitle}</h3>
            <p className="small mb-2">{APKS_OUTPUT_TEXTS.whatIs}</p>
          </div>
        ) : apkKind ? (
          <div className="mt-4">
            <h3 className="h6">O que é este APK?</h3>
            <p className="small mb-2">
              É o APK universal do bundle enviado: um único arquivo com todos os módulos, idiomas, densidades e arquiteturas, que instala em
              qualquer aparelho compatível (permita a instalação de fontes desconhecidas no celular). Para publicar no Google Play, envie o
              .aab, não este APK.
            </p>
          </div>
        ) : (
        <div className="mt-4">
          <h3 className="h6">O que é um arquivo AAB?</h3>
          <p className="small mb-2">
            O Android App Bundle (.aab) é o formato de publicação exigido pelo Google Play. Em vez de um APK único, ele leva o código e os
            recursos do app organizados por módulo, e o Google Play gera APKs otimizados para cada aparelho (idioma, densidade de tela e
            arquitetura), o que deixa os downloads menores. Envie o .aab no Play Console; para publicar, assine-o com a sua chave de upload.
          </p>
        </div>
        )}
        <Alert variant="warning" className="mb-0 small" data-testid="link-expiry">
          {deviceSet ? APKS_OUTPUT_TEXTS.linkExpires : apkKind ? RESULT_TEXTS.linkExpiresApk : RESULT_TEXTS.linkExpires}
        </Alert>
      </Card.Body>
    </Card>
  );
}
