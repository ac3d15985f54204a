import { useSyncExternalStore } from 'react';

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** The family's phone breakpoint: at 768 px and below the sidebar becomes a drawer. */
export function useIsMobile(): boolean {
  return useMediaQuery('(max-width: 768px)');
}
