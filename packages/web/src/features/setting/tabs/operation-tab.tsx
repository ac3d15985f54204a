import { Alert } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldSpec } from '../components/kit/field-spec';
import { OptionSection } from '../components/kit/option-section';
import { LogCleanup } from '../components/operation/log-cleanup';
import { RatioSettings } from '../components/ratio/ratio-settings';
import type { OptionMap } from '../option-form';

/** Operation settings (spec 000 §2): general, drawing, sensitive words, logs, export, monitoring, quota, prices. */
export function OperationTab({ options }: { options: OptionMap }) {
  const { t } = useTranslation();

  const sections = useMemo(() => {
    const general: FieldSpec[] = [
      { key: 'TopUpLink', kind: 'url', label: t('setting.op.top_up_link'), placeholder: 'https://' },
      { key: 'general_setting.docs_link', kind: 'url', label: t('setting.op.docs_link'), placeholder: 'https://' },
      {
        key: 'QuotaPerUnit',
        kind: 'number',
        label: t('setting.op.quota_per_unit'),
        help: t('setting.op.quota_per_unit_help'),
        min: 1,
      },
      { key: 'RetryTimes', kind: 'number', label: t('setting.op.retry_times'), min: 0, max: 10, precision: 0 },
      { key: 'DisplayInCurrencyEnabled', kind: 'switch', label: t('setting.op.display_in_currency') },
      { key: 'DisplayTokenStatEnabled', kind: 'switch', label: t('setting.op.display_token_stat') },
      { key: 'DefaultCollapseSidebar', kind: 'switch', label: t('setting.op.default_collapse_sidebar') },
      { key: 'DemoSiteEnabled', kind: 'switch', label: t('setting.op.demo_site') },
      { key: 'SelfUseModeEnabled', kind: 'switch', label: t('setting.op.self_use_mode') },
      { key: 'Chats', kind: 'json', label: t('setting.op.chats'), help: t('setting.op.chats_help'), wide: true },
    ];
    const drawing: FieldSpec[] = [
      { key: 'DrawingEnabled', kind: 'switch', label: t('setting.op.drawing_enabled') },
      { key: 'MjNotifyEnabled', kind: 'switch', label: t('setting.op.mj_notify') },
      { key: 'MjAccountFilterEnabled', kind: 'switch', label: t('setting.op.mj_account_filter') },
      { key: 'MjForwardUrlEnabled', kind: 'switch', label: t('setting.op.mj_forward_url') },
      { key: 'MjModeClearEnabled', kind: 'switch', label: t('setting.op.mj_mode_clear') },
      { key: 'MjActionCheckSuccessEnabled', kind: 'switch', label: t('setting.op.mj_action_check') },
      { key: 'TaskEnabled', kind: 'switch', label: t('setting.op.task_enabled') },
    ];
    const sensitive: FieldSpec[] = [
      { key: 'CheckSensitiveEnabled', kind: 'switch', label: t('setting.op.check_sensitive') },
      { key: 'CheckSensitiveOnPromptEnabled', kind: 'switch', label: t('setting.op.check_sensitive_prompt') },
      { key: 'StopOnSensitiveEnabled', kind: 'switch', label: t('setting.op.stop_on_sensitive') },
      {
        key: 'StreamCacheQueueLength',
        kind: 'number',
        label: t('setting.op.stream_cache_queue'),
        help: t('setting.op.stream_cache_queue_help'),
        min: 0,
        precision: 0,
      },
      {
        key: 'SensitiveWords',
        kind: 'textarea',
        label: t('setting.op.sensitive_words'),
        help: t('setting.op.one_per_line'),
        wide: true,
      },
    ];
    const logs: FieldSpec[] = [
      { key: 'LogConsumeEnabled', kind: 'switch', label: t('setting.op.log_consume') },
      // Kept request and response bodies (a channel's own switch is in its advanced settings).
      {
        key: 'LogBodiesMaxBytes',
        kind: 'number',
        label: t('log_bodies.setting_max_bytes'),
        help: t('log_bodies.setting_max_bytes_help'),
        min: 256,
        max: 1048576,
        precision: 0,
      },
      {
        key: 'LogBodiesRetentionDays',
        kind: 'number',
        label: t('log_bodies.setting_retention_days'),
        help: t('log_bodies.setting_retention_days_help'),
        min: 0,
        max: 3650,
        precision: 0,
      },
      {
        key: 'LogBodiesGroups',
        kind: 'json',
        label: t('log_bodies.setting_groups'),
        help: t('log_bodies.setting_groups_help'),
        wide: true,
        rows: 2,
      },
    ];
    const dataExport: FieldSpec[] = [
      { key: 'DataExportEnabled', kind: 'switch', label: t('setting.op.data_export') },
      {
        key: 'DataExportInterval',
        kind: 'number',
        label: t('setting.op.data_export_interval'),
        help: t('setting.op.data_export_interval_help'),
        min: 1,
        precision: 0,
      },
      {
        key: 'DataExportDefaultTime',
        kind: 'select',
        label: t('setting.op.data_export_default_time'),
        options: [
          { value: 'hour', label: t('setting.op.granularity_hour') },
          { value: 'day', label: t('setting.op.granularity_day') },
          { value: 'week', label: t('setting.op.granularity_week') },
        ],
      },
    ];
    const monitoring: FieldSpec[] = [
      {
        key: 'ChannelDisableThreshold',
        kind: 'number',
        label: t('setting.op.channel_disable_threshold'),
        help: t('setting.op.channel_disable_threshold_help'),
        min: 0,
      },
      {
        key: 'QuotaRemindThreshold',
        kind: 'number',
        label: t('setting.op.quota_remind_threshold'),
        min: 0,
        precision: 0,
      },
      { key: 'AutomaticDisableChannelEnabled', kind: 'switch', label: t('setting.op.auto_disable') },
      { key: 'AutomaticEnableChannelEnabled', kind: 'switch', label: t('setting.op.auto_enable') },
      {
        key: 'AutomaticDisableKeywords',
        kind: 'textarea',
        label: t('setting.op.auto_disable_keywords'),
        help: t('setting.op.auto_disable_keywords_help'),
        wide: true,
      },
    ];
    const quota: FieldSpec[] = [
      { key: 'QuotaForNewUser', kind: 'number', label: t('setting.op.quota_new_user'), min: 0, precision: 0 },
      { key: 'PreConsumedQuota', kind: 'number', label: t('setting.op.pre_consumed'), min: 0, precision: 0 },
      { key: 'QuotaForInviter', kind: 'number', label: t('setting.op.quota_inviter'), min: 0, precision: 0 },
      { key: 'QuotaForInvitee', kind: 'number', label: t('setting.op.quota_invitee'), min: 0, precision: 0 },
    ];
    const checkin: FieldSpec[] = [
      {
        key: 'checkin_setting.enabled',
        kind: 'switch',
        label: t('setting.op.checkin_enabled'),
        help: t('setting.op.checkin_enabled_help'),
      },
      {
        key: 'checkin_setting.min_quota',
        kind: 'number',
        label: t('setting.op.checkin_min_quota'),
        min: 0,
        precision: 0,
      },
      {
        key: 'checkin_setting.max_quota',
        kind: 'number',
        label: t('setting.op.checkin_max_quota'),
        min: 0,
        precision: 0,
      },
    ];
    return { general, drawing, sensitive, logs, dataExport, monitoring, quota, checkin };
  }, [t]);

  return (
    <>
      <OptionSection
        title={t('setting.op.general')}
        intro={<Alert type="warning" showIcon title={t('setting.op.quota_per_unit_warning')} />}
        fields={sections.general}
        options={options}
        testId="section-general"
      />
      <OptionSection
        title={t('setting.op.drawing')}
        fields={sections.drawing}
        options={options}
        testId="section-drawing"
      />
      <OptionSection
        title={t('setting.op.sensitive')}
        fields={sections.sensitive}
        options={options}
        testId="section-sensitive"
      />
      <OptionSection title={t('setting.op.logs')} fields={sections.logs} options={options} testId="section-logs">
        <LogCleanup />
      </OptionSection>
      <OptionSection
        title={t('setting.op.export')}
        fields={sections.dataExport}
        options={options}
        testId="section-export"
      />
      <OptionSection
        title={t('setting.op.monitoring')}
        fields={sections.monitoring}
        options={options}
        testId="section-monitoring"
      />
      <OptionSection title={t('setting.op.quota')} fields={sections.quota} options={options} testId="section-quota" />
      <OptionSection
        title={t('setting.op.checkin')}
        fields={sections.checkin}
        options={options}
        testId="section-checkin"
      />
      <RatioSettings options={options} />
    </>
  );
}
