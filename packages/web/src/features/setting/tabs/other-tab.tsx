import { Card } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldSpec } from '../components/kit/field-spec';
import { OptionSection } from '../components/kit/option-section';
import { VersionDialog } from '../components/other/version-dialog';
import type { OptionMap } from '../option-form';

/** Site content (spec 000 §2 "Other settings"): each text has its own Save, plus the version dialog. */
export function OtherTab({ options }: { options: OptionMap }) {
  const { t } = useTranslation();
  const fields = useMemo<Array<{ field: FieldSpec; save: string }>>(
    () => [
      {
        field: {
          key: 'Notice',
          kind: 'textarea',
          label: t('setting.other.notice'),
          help: t('setting.other.markdown_help'),
          wide: true,
        },
        save: t('setting.other.save_notice'),
      },
      {
        field: { key: 'SystemName', kind: 'text', label: t('setting.other.system_name'), wide: true },
        save: t('setting.other.save_system_name'),
      },
      {
        field: {
          key: 'Logo',
          kind: 'text',
          label: t('setting.other.logo'),
          help: t('setting.other.logo_help'),
          placeholder: 'https://',
          wide: true,
        },
        save: t('setting.other.save_logo'),
      },
      {
        field: {
          key: 'HomePageContent',
          kind: 'textarea',
          label: t('setting.other.home_page'),
          help: t('setting.other.home_page_help'),
          rows: 6,
          wide: true,
        },
        save: t('setting.other.save_home_page'),
      },
      {
        field: {
          key: 'About',
          kind: 'textarea',
          label: t('setting.other.about'),
          help: t('setting.other.about_help'),
          rows: 6,
          wide: true,
        },
        save: t('setting.other.save_about'),
      },
      {
        field: {
          key: 'Footer',
          kind: 'textarea',
          label: t('setting.other.footer'),
          help: t('setting.other.footer_help'),
          wide: true,
        },
        save: t('setting.other.save_footer'),
      },
    ],
    [t],
  );
  // One stable array per field, so each small form keeps its identity across renders.
  const single = useMemo(() => fields.map(({ field }) => [field]), [fields]);

  return (
    <Card title={t('setting.other.title')} className="setting-section" extra={<VersionDialog />}>
      {fields.map(({ field, save }, index) => (
        <div className="setting-subsection" key={field.key}>
          <OptionSection
            bare
            fields={single[index]!}
            options={options}
            saveLabel={save}
            testId={`other-${field.key}`}
          />
        </div>
      ))}
    </Card>
  );
}
