import { TranslationOutlined } from '@ant-design/icons';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '@gateway/shared';
import { Button, Dropdown, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { chooseLanguage, currentLanguage } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { useIsMobile } from '../../lib/use-media-query';

// Short forms for the phone's narrow top bar; each still in its own script.
const SHORT_NAMES: Record<Language, string> = {
  zh: '简',
  en: 'EN',
  'zh-TW': '繁',
  ja: '日',
  fr: 'FR',
  ru: 'RU',
  vi: 'VI',
};

/**
 * The language switch: the current language by name (each language is named in itself, so a visitor who cannot
 * read the current one still finds theirs), a tooltip saying what the button does, and every language in the menu.
 */
export function LanguageMenu() {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const current = currentLanguage();
  const label = t('header.language');
  // The tooltip would cover the top of the open menu (the bar sits at the top, so it shows below the button).
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <Dropdown
      trigger={['click']}
      onOpenChange={setMenuOpen}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: LANGUAGES.map((lang) => ({
          key: lang,
          label: <span lang={lang}>{LANGUAGE_NAMES[lang]}</span>,
        })),
        // A language other than zh and en is fetched first; offline, the console stays as it is and says why.
        onClick: ({ key }) =>
          void chooseLanguage(key as Language).catch(() => notify.error(t('status.connect_failed'))),
      }}
    >
      <Tooltip title={label} open={menuOpen ? false : undefined}>
        <Button
          type="text"
          icon={<TranslationOutlined />}
          aria-label={`${label}: ${LANGUAGE_NAMES[current]}`}
          data-testid="language-menu"
        >
          <span lang={current}>{isMobile ? SHORT_NAMES[current] : LANGUAGE_NAMES[current]}</span>
        </Button>
      </Tooltip>
    </Dropdown>
  );
}
