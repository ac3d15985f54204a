import { usePublicStatus } from '../hooks/use-status';

export const DEFAULT_LOGO = '/logo.svg';
export const DEFAULT_SYSTEM_NAME = 'New API';

/** The operator's name and logo, with the product's own as the fallback before setup or status. */
export function useBrand(): { name: string; logo: string } {
  const status = usePublicStatus();
  return { name: status.system_name || DEFAULT_SYSTEM_NAME, logo: status.logo || DEFAULT_LOGO };
}

export function BrandLogo({ size = 32 }: { size?: number }) {
  const { logo } = useBrand();
  return <img className="brand-logo" src={logo} alt="" width={size} height={size} />;
}
