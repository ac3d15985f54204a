/** The three ways to run the site, chosen once at setup; the server stores them as two switches. */
export type UsageMode = 'external' | 'self' | 'demo';

export const USAGE_MODES: UsageMode[] = ['external', 'self', 'demo'];

export function usageModeFlags(mode: UsageMode): { SelfUseModeEnabled: boolean; DemoSiteEnabled: boolean } {
  return { SelfUseModeEnabled: mode === 'self', DemoSiteEnabled: mode === 'demo' };
}
