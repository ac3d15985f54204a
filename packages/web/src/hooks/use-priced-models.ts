import { useSessionUser } from '../lib/session';
import { usePricing } from './use-pricing';

/**
 * The model names the relay would price for the signed-in user (the price list's own rule): a model outside it is
 * refused with "no price set", so pickers offer it disabled. `undefined` while the list loads, or when it could not
 * be read (then nothing is held back).
 */
export function usePricedModels(): { priced: ReadonlySet<string> | undefined; isPending: boolean } {
  const user = useSessionUser();
  const pricing = usePricing(user?.id ?? null);
  return {
    priced: pricing.data ? new Set(pricing.data.data.map((entry) => entry.model_name)) : undefined,
    isPending: pricing.isPending,
  };
}
