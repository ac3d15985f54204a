import { Card, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OptionMap } from '../../option-form';
import { PriceSyncPanel } from './price-sync-panel';
import { RatioJsonEditors } from './ratio-json-editors';
import { UnsetModels } from './unset-models';
import { VisualRatioEditor } from './visual-ratio-editor';

/** The pricing part of the operation tab (spec 001 §2): JSON editors, the visual editor, unpriced models. */
export function RatioSettings({ options }: { options: OptionMap }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState('json');
  return (
    <Card title={t('setting.ratio.title')} className="setting-section" data-testid="ratio-settings">
      <Tabs
        activeKey={tab}
        onChange={setTab}
        destroyOnHidden
        items={[
          { key: 'json', label: t('setting.ratio.tab_json'), children: <RatioJsonEditors options={options} /> },
          { key: 'visual', label: t('setting.ratio.tab_visual'), children: <VisualRatioEditor options={options} /> },
          { key: 'unset', label: t('setting.ratio.tab_unset'), children: <UnsetModels options={options} /> },
          { key: 'sync', label: t('price_sync.tab'), children: <PriceSyncPanel options={options} /> },
        ]}
      />
    </Card>
  );
}
