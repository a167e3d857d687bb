import Card from 'react-bootstrap/Card';
import Placeholder from 'react-bootstrap/Placeholder';

/** Grey lines where a list or a card will be, while it loads (announced as loading). */
export function SkeletonRows({ rows = 4, testId = 'skeleton' }: { rows?: number; testId?: string }) {
  return (
    <Card aria-busy="true" data-testid={testId}>
      <Card.Body>
        <span className="visually-hidden" role="status">
          Carregando…
        </span>
        {Array.from({ length: rows }, (_, i) => (
          <Placeholder key={i} as="div" animation="glow" className="mb-3" aria-hidden="true">
            <Placeholder xs={4} className="me-2" /> <Placeholder xs={3} className="me-2" /> <Placeholder xs={2} />
          </Placeholder>
        ))}
      </Card.Body>
    </Card>
  );
}
