import { ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Result, Skeleton, Tabs } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useOptions } from '../api/use-options';
import type { OptionMap } from '../option-form';
import { ModelsTab } from '../tabs/models-tab';
import { OperationTab } from '../tabs/operation-tab';
import { OtherTab } from '../tabs/other-tab';
import { RateLimitTab } from '../tabs/ratelimit-tab';
import { SystemTab } from '../tabs/system-tab';
import '../setting.css';

const TABS = ['operation', 'ratelimit', 'models', 'system', 'other'] as const;
type TabKey = (typeof TABS)[number];

const TAB_CONTENT: Record<TabKey, (options: OptionMap) => ReactNode> = {
  operation: (options) => <OperationTab options={options} />,
  ratelimit: (options) => <RateLimitTab options={options} />,
  models: (options) => <ModelsTab options={options} />,
  system: (options) => <SystemTab options={options} />,
  other: (options) => <OtherTab options={options} />,
};

/** Settings (admin): the tab comes from `?tab=` (spec 001 §2), operation by default. */
export default function SettingPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: TabKey = TABS.includes(requested as TabKey) ? (requested as TabKey) : 'operation';
  const options = useOptions();

  const labels: Record<TabKey, string> = {
    operation: t('setting.tabs.operation'),
    ratelimit: t('setting.tabs.ratelimit'),
    models: t('setting.tabs.models'),
    system: t('setting.tabs.system'),
    other: t('setting.tabs.other'),
  };

  let content: ReactNode;
  if (options.isPending) {
    content = (
      <div data-testid="setting-loading">
        {[0, 1].map((n) => (
          <Card key={n} className="setting-section">
            <Skeleton active paragraph={{ rows: 5 }} />
          </Card>
        ))}
      </div>
    );
  } else if (options.isError) {
    content = (
      <Card>
        <Result
          status="warning"
          title={t('setting.load_failed')}
          subTitle={options.error instanceof Error ? options.error.message : undefined}
          extra={
            <Button icon={<ReloadOutlined />} onClick={() => void options.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      </Card>
    );
  } else {
    content = TAB_CONTENT[tab](options.data);
  }

  return (
    <div className="page-container setting-page">
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams({ tab: key })}
        items={TABS.map((key) => ({ key, label: labels[key] }))}
        data-testid="setting-tabs"
      />
      <div className="setting-stack">{content}</div>
    </div>
  );
}
