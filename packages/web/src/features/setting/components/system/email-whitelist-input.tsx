import { PlusOutlined } from '@ant-design/icons';
import { isDomain, splitDomainList } from '@gateway/shared';
import { Button, Flex, Input, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The e-mail domain whitelist as tags (stored as a comma list). An entry must look like a domain and must not be
 * there already (spec 000 §5).
 */
export function EmailWhitelistInput({ value = '', onChange }: { value?: string; onChange?: (next: string) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState('');
  const [error, setError] = useState('');
  const domains = splitDomainList(value);

  const add = () => {
    const domain = draft.trim().toLowerCase();
    if (!domain) return;
    if (!isDomain(domain)) return setError(t('setting.system.whitelist_bad_domain'));
    if (domains.some((existing) => existing.toLowerCase() === domain)) {
      return setError(t('errors:option_duplicate_domain'));
    }
    onChange?.([...domains, domain].join(','));
    setDraft('');
    setError('');
  };

  return (
    <Flex vertical gap={8} data-testid="email-whitelist">
      <Flex wrap gap={4}>
        {domains.map((domain) => (
          <Tag
            key={domain}
            closable
            onClose={(event) => {
              event.preventDefault();
              onChange?.(domains.filter((item) => item !== domain).join(','));
            }}
          >
            {domain}
          </Tag>
        ))}
        {domains.length === 0 && (
          <Typography.Text type="secondary">{t('setting.system.whitelist_empty')}</Typography.Text>
        )}
      </Flex>
      <Space.Compact style={{ maxWidth: 420 }}>
        <Input
          value={draft}
          placeholder="example.com"
          status={error ? 'error' : undefined}
          aria-label={t('setting.system.whitelist_add_label')}
          onChange={(event) => {
            setDraft(event.target.value);
            setError('');
          }}
          onPressEnter={(event) => {
            event.preventDefault();
            add();
          }}
        />
        <Button icon={<PlusOutlined />} onClick={add}>
          {t('setting.system.whitelist_add')}
        </Button>
      </Space.Compact>
      {error && <Typography.Text type="danger">{error}</Typography.Text>}
    </Flex>
  );
}
