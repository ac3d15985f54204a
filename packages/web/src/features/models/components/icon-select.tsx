import { Flex, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { VENDOR_ICON_NAMES } from '../../../components/vendor-icon/icon-names';
import { VendorIcon } from '../../../components/vendor-icon/vendor-icon';

interface IconSelectProps {
  value?: string;
  onChange?: (value: string) => void;
  id?: string;
}

/** Picks one of the bundled icons by name ('' none); a name the family stored that we do not bundle stays as it is. */
export function IconSelect({ value = '', onChange, id }: IconSelectProps) {
  const { t } = useTranslation();
  const names: string[] = [...VENDOR_ICON_NAMES];
  if (value && !names.some((name) => name.toLowerCase() === value.toLowerCase())) names.unshift(value);
  return (
    <Select
      id={id}
      showSearch
      allowClear
      value={value || undefined}
      placeholder={t('models.icon_none')}
      onChange={(next) => onChange?.(next ?? '')}
      data-testid="icon-select"
      options={names.map((name) => ({
        value: name,
        label: (
          <Flex gap={8} align="center">
            <VendorIcon icon={name} label={name} size={18} />
            <span>{name}</span>
          </Flex>
        ),
        search: name.toLowerCase(),
      }))}
      filterOption={(input, option) => Boolean(option?.search.includes(input.toLowerCase()))}
    />
  );
}
