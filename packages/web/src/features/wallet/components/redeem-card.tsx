import { GiftOutlined, ShoppingOutlined } from '@ant-design/icons';
import { Button, Card, Flex, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { usePublicStatus } from '../../../hooks/use-status';
import { notify } from '../../../lib/notify';
import { useRedeem } from '../api/use-redeem';

interface RedeemValues {
  key: string;
}

/** Redeem a code for quota; and where to buy codes (the operator's top-up link). */
export function RedeemCard() {
  const { t } = useTranslation();
  const [form] = Form.useForm<RedeemValues>();
  const status = usePublicStatus();
  const formatQuota = useFormatQuota();
  const redeem = useRedeem();

  const onFinish = ({ key }: RedeemValues) =>
    redeem.mutate(key.trim(), {
      onSuccess: (quota) => {
        notify.success(t('wallet.redeem_success', { value: formatQuota(quota ?? 0) }));
        form.resetFields();
      },
    });

  // Where to buy codes is offered only when the operator set it: a button that answers "not configured" is a dead end.
  const topUpLink = status.top_up_link?.trim();

  return (
    <Card
      className="wallet-card"
      title={
        <Flex align="center" gap={8}>
          <GiftOutlined />
          {t('wallet.redeem_title')}
        </Flex>
      }
    >
      <Flex vertical gap={16}>
        <Typography.Text type="secondary">{t('wallet.redeem_help')}</Typography.Text>
        <Form<RedeemValues> form={form} onFinish={onFinish} className="wallet-redeem-form">
          <Flex gap={8} align="flex-start">
            <Form.Item
              name="key"
              style={{ flex: 1, minWidth: 0, marginBottom: 0 }}
              rules={[{ required: true, whitespace: true, message: t('errors:redemption_key_required') }]}
            >
              <Input
                allowClear
                placeholder={t('wallet.redeem_placeholder')}
                aria-label={t('wallet.redeem_placeholder')}
                autoComplete="off"
                className="mono-text"
                data-testid="wallet-redeem-input"
              />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={redeem.isPending} data-testid="wallet-redeem">
              {t('wallet.redeem')}
            </Button>
          </Flex>
        </Form>
        {topUpLink && (
          <Flex align="center" gap={4} wrap className="wallet-buy">
            <Typography.Text type="secondary">{t('wallet.no_code')}</Typography.Text>
            <Button
              type="link"
              icon={<ShoppingOutlined />}
              href={topUpLink}
              target="_blank"
              rel="noopener noreferrer"
              style={{ paddingInline: 4 }}
            >
              {t('wallet.buy_codes')}
            </Button>
          </Flex>
        )}
      </Flex>
    </Card>
  );
}
