/**
 * Build-time markup of a landing screen as a signed-in visitor first sees it (top bar, then the
 * screen with no data loaded yet), rendered by the real components with react-dom/server. The
 * build puts it into that route's HTML (build.mjs), so the first paint needs no script; the app
 * then renders the same screen in its place.
 */
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { Shell } from './components/Shell';
import ConverterPage from './pages/converter/ConverterPage';

const SCREENS: Record<string, () => ReactElement> = {
  '/converter': () => <ConverterPage />,
};

export const PRERENDERED_PATHS = Object.keys(SCREENS);

export function prerender(path: string): string {
  const Screen = SCREENS[path];
  if (!Screen) throw new Error(`${path}: no prerendered screen`);
  return renderToStaticMarkup(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route element={<Shell />}>
          <Route path={path} element={<Screen />} />
        </Route>
      </Routes>
    </MemoryRouter>,
  );
}
