import { ApiOutlined } from '@ant-design/icons';

/** A custom provider's icon: the picture its settings point to, else a neutral sign-in mark. */
export function CustomProviderIcon({ icon }: { icon?: string }) {
  if (icon && /^(https?:\/\/|data:image\/)/i.test(icon)) {
    return <img src={icon} alt="" width={16} height={16} style={{ verticalAlign: '-3px', objectFit: 'contain' }} />;
  }
  return <ApiOutlined />;
}
