import type { ReactNode } from 'react';

/**
 * One line cut with an ellipsis, the whole text in a tooltip (title) and for screen readers:
 * emails and file names never break letter by letter. `max` is a fixed width (a table column
 * needs one); inside a card the width of the card is the limit (styles.css).
 */
export function Truncate({ text, children, max = '100%', className, testId }: { text: string; children?: ReactNode; max?: string; className?: string; testId?: string }) {
  return (
    <span className={`text-truncate d-inline-block align-bottom truncate${className ? ` ${className}` : ''}`} style={{ maxWidth: max }} title={text} data-testid={testId}>
      {children ?? text}
    </span>
  );
}
