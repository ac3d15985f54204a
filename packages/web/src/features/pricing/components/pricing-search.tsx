import { SearchOutlined } from '@ant-design/icons';
import { Input } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The model search box. While an input method is composing (pinyin, kana…), the half-typed letters are shown
 * but not searched for; the finished word is searched once composition ends.
 */
export function PricingSearch({ onSearch }: { onSearch: (text: string) => void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const composing = useRef(false);
  return (
    <Input
      allowClear
      className="pricing-search"
      prefix={<SearchOutlined />}
      placeholder={t('pricing.search')}
      aria-label={t('pricing.search')}
      value={value}
      onCompositionStart={() => {
        composing.current = true;
      }}
      onCompositionEnd={(event) => {
        composing.current = false;
        onSearch(event.currentTarget.value);
      }}
      onChange={(event) => {
        setValue(event.target.value);
        if (!composing.current) onSearch(event.target.value);
      }}
    />
  );
}
