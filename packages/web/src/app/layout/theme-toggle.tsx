import { MoonOutlined, SunOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useThemeMode } from '../theme/theme-mode';

export function ThemeToggle() {
  const { t } = useTranslation();
  const { mode, toggle } = useThemeMode();
  const label = mode === 'dark' ? t('header.theme_light') : t('header.theme_dark');
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        shape="circle"
        icon={mode === 'dark' ? <SunOutlined /> : <MoonOutlined />}
        onClick={toggle}
        aria-label={label}
        data-testid="theme-toggle"
      />
    </Tooltip>
  );
}
