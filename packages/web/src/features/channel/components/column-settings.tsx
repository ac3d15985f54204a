import { SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Flex, Popover, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { HIDEABLE_COLUMNS } from './channel-table';

/** Which columns of the channel table are shown; the choice is stored locally. */
export function ColumnSettings({ hidden, onChange }: { hidden: string[]; onChange: (hidden: string[]) => void }) {
  const { t } = useTranslation();
  const visible = HIDEABLE_COLUMNS.map((column) => column.key).filter((key) => !hidden.includes(key));
  const content = (
    <Flex vertical gap={8}>
      <Typography.Text type="secondary">{t('channel.columns_help')}</Typography.Text>
      <Checkbox.Group
        value={visible}
        onChange={(keys) => onChange(HIDEABLE_COLUMNS.map((column) => column.key).filter((key) => !keys.includes(key)))}
      >
        <Flex vertical gap={6}>
          {HIDEABLE_COLUMNS.map((column) => (
            <Checkbox key={column.key} value={column.key}>
              {t(column.labelKey)}
            </Checkbox>
          ))}
        </Flex>
      </Checkbox.Group>
      <Button size="small" type="link" style={{ padding: 0, alignSelf: 'flex-start' }} onClick={() => onChange([])}>
        {t('channel.columns_reset')}
      </Button>
    </Flex>
  );
  return (
    <Popover content={content} trigger="click" placement="bottomRight" title={t('channel.columns')}>
      <Button icon={<SettingOutlined />}>{t('channel.columns')}</Button>
    </Popover>
  );
}
