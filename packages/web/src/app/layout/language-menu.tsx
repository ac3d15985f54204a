import { TranslationOutlined } from '@ant-design/icons';
import type { Language } from '@gateway/shared';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../lib/i18n';

// Each language is named in itself, so a visitor who cannot read the current one still finds theirs.
const LANGUAGE_NAMES: Record<Language, string> = { zh: '简体中文', en: 'English' };

export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const current = currentLanguage();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: (Object.keys(LANGUAGE_NAMES) as Language[]).map((lang) => ({ key: lang, label: LANGUAGE_NAMES[lang] })),
        onClick: ({ key }) => void i18n.changeLanguage(key),
      }}
    >
      <Button
        type="text"
        shape="circle"
        icon={<TranslationOutlined />}
        aria-label={t('header.language')}
        data-testid="language-menu"
      />
    </Dropdown>
  );
}
