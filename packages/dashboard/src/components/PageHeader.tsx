import { useEffect, type ReactNode } from 'react';

export const APP_NAME = 'aabify';

/** document.title = 'Título · aabify' while the screen is shown. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    const previous = document.title;
    document.title = `${title} · ${APP_NAME}`;
    return () => {
      document.title = previous;
    };
  }, [title]);
}

/**
 * Every screen's heading: its h1, the browser tab's title, and the screen's main actions beside it.
 * `userText`: the title holds text a user chose (an e-mail), which may break anywhere rather than widen a narrow screen.
 */
export function PageHeader({ title, subtitle, actions, titleTestId, userText }: { title: string; subtitle?: ReactNode; actions?: ReactNode; titleTestId?: string; userText?: boolean }) {
  usePageTitle(title);
  return (
    <div className="d-flex flex-wrap justify-content-between align-items-start gap-2 mb-3 page-header">
      <div className="min-w-0">
        <h1 className={userText ? 'h3 mb-1 text-break-word' : 'h3 mb-1'} data-testid={titleTestId}>
          {title}
        </h1>
        {subtitle && <div className="text-body-secondary">{subtitle}</div>}
      </div>
      {actions && <div className="d-flex flex-wrap gap-2 align-items-center">{actions}</div>}
    </div>
  );
}
