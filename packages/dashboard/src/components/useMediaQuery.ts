import { useEffect, useState } from 'react';

/** Bootstrap's md breakpoint: below it lists become cards and the admin sidebar slides out. */
export const WIDE_QUERY = '(min-width: 768px)';
export const SIDEBAR_QUERY = '(min-width: 992px)';
/** A touch screen without a mouse: nothing is dragged there, files are tapped and chosen. */
export const TOUCH_QUERY = '(hover: none) and (pointer: coarse)';

/** `prerendered`: the answer where there is no window (the build's prerender), so the first paint matches most visitors. */
export function useMediaQuery(query: string, prerendered = true): boolean {
  const get = () => (typeof window !== 'undefined' && window.matchMedia ? window.matchMedia(query).matches : prerendered);
  const [matches, setMatches] = useState(get);
  useEffect(() => {
    const mq = window.matchMedia(query);
    const onChange = () => setMatches(mq.matches);
    onChange();
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }, [query]);
  return matches;
}
