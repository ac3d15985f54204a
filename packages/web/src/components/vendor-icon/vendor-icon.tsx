import { Avatar } from 'antd';
import { useEffect, useState } from 'react';
import { iconFileOf } from './icon-names';
import './vendor-icon.css';

type IconSet = Record<string, string>;
let loaded: IconSet | null = null;
let loading: Promise<IconSet> | null = null;

/** The icon chunk, fetched once for the whole console. */
function loadIconSet(): Promise<IconSet> {
  loading ??= import('./icon-set').then((module) => {
    loaded = module.ICON_SVGS;
    return loaded;
  });
  return loading;
}

function useIconSet(wanted: boolean): IconSet | null {
  const [set, setSet] = useState<IconSet | null>(loaded);
  useEffect(() => {
    if (!wanted || set) return;
    let live = true;
    void loadIconSet().then((icons) => live && setSet(icons));
    return () => {
      live = false;
    };
  }, [wanted, set]);
  return set;
}

interface VendorIconProps {
  /** The stored icon name ('' none). */
  icon: string;
  /** The vendor's name: the label, and its initial when there is no icon. */
  label: string;
  size?: number;
}

/** A vendor's icon from the bundled set, or its initial while the set loads or when the name is unknown. */
export function VendorIcon({ icon, label, size = 20 }: VendorIconProps) {
  const icons = useIconSet(icon !== '');
  const svg = icon ? icons?.[iconFileOf(icon)] : undefined;
  if (!svg) {
    return (
      <Avatar size={size} className="vendor-icon-initial" aria-label={label}>
        {label.trim().charAt(0).toUpperCase() || '?'}
      </Avatar>
    );
  }
  return (
    <span
      className="vendor-icon"
      role="img"
      aria-label={label}
      data-icon={iconFileOf(icon)}
      style={{ fontSize: size }}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: a file of the bundled icon set, never user input
      dangerouslySetInnerHTML={{ __html: svg }}
    />
  );
}
