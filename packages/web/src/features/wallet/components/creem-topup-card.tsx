import { ShoppingOutlined } from '@ant-design/icons';
import { type CreemProduct, creemProductsFrom } from '@gateway/shared';
import { Alert, Button, Card, Descriptions, Flex, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { notify } from '../../../lib/notify';
import { goToCheckout, useCreemPay } from '../api/use-card-pay';
import { useTopUpInfo } from '../api/use-topup-info';
import { PayConfirmModal } from './pay-confirm-modal';

/** A product's price as the payer will be charged it (the product's own currency). */
function priceOf(product: CreemProduct): string {
  return `${product.price.toFixed(2)} ${product.currency}`;
}

/**
 * Top-up packs sold through Creem: each product credits its own quota. Shown only when the operator set Creem up;
 * the checkout is Creem's hosted page, and the quota arrives with Creem's signed webhook.
 */
export function CreemTopUpCard() {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  const info = useTopUpInfo();
  const products = useMemo(() => creemProductsFrom(info.data?.creem_products), [info.data?.creem_products]);
  const [chosen, setChosen] = useState<CreemProduct | null>(null);
  const [payError, setPayError] = useState<string | null>(null);
  const pay = useCreemPay();

  if (!info.data?.enable_creem_topup || products.length === 0) return null;

  const confirm = () => {
    if (!chosen) return;
    pay.mutate(chosen.productId, {
      onSuccess: (url) => {
        notify.info(t('wallet.redirecting'));
        goToCheckout(url);
        setChosen(null);
      },
      onError: (error) => {
        setPayError(error instanceof Error ? error.message : String(error));
        setChosen(null);
      },
    });
  };

  return (
    <Card
      className="wallet-card"
      title={
        <Flex align="center" gap={8}>
          <ShoppingOutlined />
          {t('wallet.creem_title')}
        </Flex>
      }
      data-testid="wallet-creem"
    >
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">{t('wallet.creem_help')}</Typography.Text>
        <div className="wallet-products">
          {products.map((product) => (
            <Button
              key={product.productId}
              className="wallet-product"
              onClick={() => {
                setPayError(null);
                setChosen(product);
              }}
              data-testid={`wallet-creem-${product.productId}`}
            >
              <span className="wallet-product-name">{product.name}</span>
              <span className="wallet-product-quota">{formatQuota(product.quota)}</span>
              <span className="wallet-product-price">{priceOf(product)}</span>
            </Button>
          ))}
        </div>
        {payError && <Alert type="error" showIcon title={payError} closable={{ onClose: () => setPayError(null) }} />}
      </Flex>
      <PayConfirmModal open={chosen !== null} loading={pay.isPending} onOk={confirm} onCancel={() => setChosen(null)}>
        {chosen && (
          <Descriptions column={1} size="small" bordered className="wallet-confirm">
            <Descriptions.Item label={t('wallet.product')}>{chosen.name}</Descriptions.Item>
            <Descriptions.Item label={t('wallet.credit')}>{formatQuota(chosen.quota)}</Descriptions.Item>
            <Descriptions.Item label={t('wallet.payable')}>{priceOf(chosen)}</Descriptions.Item>
            <Descriptions.Item label={t('wallet.method')}>{t('wallet.method_creem')}</Descriptions.Item>
          </Descriptions>
        )}
      </PayConfirmModal>
    </Card>
  );
}
