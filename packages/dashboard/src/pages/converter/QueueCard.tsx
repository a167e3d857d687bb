import Card from 'react-bootstrap/Card';
import { remainingEstimate, type ConversionView } from '../../lib/conversion';
import { ESTIMATE_TEXTS, formatEstimate } from '../../lib/format';

/** Queue position while queued; the position and time remaining while processing. */
export function QueueCard({ conversion }: { conversion: ConversionView }) {
  const position = conversion.queuePosition;
  if (conversion.status === 'queued' && position !== 0) {
    const ahead = position !== undefined ? Math.max(0, position - 1) : undefined;
    return (
      <Card className="mb-3" data-testid="queue-card">
        <Card.Body>
          <h2 className="h6">Fila de conversão</h2>
          <div className="d-flex flex-wrap gap-4">
            <div>
              <div className="small text-body-secondary">Sua posição</div>
              <div className="stat-value" data-testid="queue-position">
                {position ?? '—'}
              </div>
            </div>
            <div>
              <div className="small text-body-secondary">Total na fila</div>
              <div className="stat-value" data-testid="queue-total">
                {conversion.totalInQueue ?? '—'}
              </div>
            </div>
            <div>
              <div className="small text-body-secondary">Tempo estimado</div>
              <div className="fw-semibold" data-testid="queue-estimate">
                {formatEstimate(conversion.estimatedTime, ESTIMATE_TEXTS.queueFallback)}
              </div>
            </div>
            <div>
              <div className="small text-body-secondary">Processando agora</div>
              <div className="fw-semibold" data-testid="queue-processing">
                {conversion.currentlyProcessing}/{conversion.maxConcurrent}
              </div>
            </div>
          </div>
          <p className="mb-0 mt-2" data-testid="queue-ahead">
            {position === 1 ? 'Você é o próximo!' : ahead !== undefined ? `${ahead} ${ahead === 1 ? 'arquivo' : 'arquivos'} à sua frente` : 'Aguardando posição na fila...'}
          </p>
        </Card.Body>
      </Card>
    );
  }
  if (conversion.status === 'processing' || (conversion.status === 'queued' && position === 0)) {
    const remaining = remainingEstimate(conversion);
    return (
      <Card className="mb-3" data-testid="processing-card">
        <Card.Body className="d-flex flex-wrap gap-4">
          <div>
            <div className="small text-body-secondary">Sua posição</div>
            <div className="fw-semibold">Em processamento</div>
          </div>
          <div>
            <div className="small text-body-secondary">Tempo restante</div>
            <div className="fw-semibold" data-testid="processing-remaining">
              {formatEstimate(remaining, ESTIMATE_TEXTS.processingFallback)}
            </div>
          </div>
          <div>
            <div className="small text-body-secondary">Processando agora</div>
            <div className="fw-semibold">
              {conversion.currentlyProcessing}/{conversion.maxConcurrent}
            </div>
          </div>
        </Card.Body>
      </Card>
    );
  }
  return null;
}
