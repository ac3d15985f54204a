import { AlipayCircleOutlined, CreditCardOutlined, LoadingOutlined, WechatOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Descriptions, Flex, InputNumber, Modal, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { usePublicStatus } from '../../../hooks/use-status';
import { notify } from '../../../lib/notify';
import { quotaDisplayFrom } from '../../../lib/quota';
import { usePay } from '../api/use-pay';
import { usePayQuote } from '../api/use-pay-quote';
import { useTopUpInfo } from '../api/use-topup-info';
import { submitPaymentForm } from '../submit-payment-form';
import { discountOf, minimumAmount, type PaymentMethod, presetsFrom } from '../types';
import { useDebouncedValue } from '../use-debounced-value';

const METHODS: Record<PaymentMethod, { labelKey: string; icon: ReactNode; className: string }> = {
  zfb: { labelKey: 'wallet.method_zfb', icon: <AlipayCircleOutlined />, className: 'wallet-pay-zfb' },
  wx: { labelKey: 'wallet.method_wx', icon: <WechatOutlined />, className: 'wallet-pay-wx' },
};

/**
 * Online top-up through the operator's epay gateway. The top-up info says whether it is enabled, the minimum, the
 * quick picks and their discounts; a refusal from the server (amount too small, …) is still shown in place.
 */
export function OnlineTopUpCard() {
  const { t } = useTranslation();
  const status = usePublicStatus();
  const formatQuota = useFormatQuota();
  const { quotaPerUnit } = quotaDisplayFrom(status);
  const info = useTopUpInfo();
  const min = minimumAmount(info.data?.min_topup ?? status.min_topup);
  // Only a definite "off" from the server disables paying (an unreadable answer leaves the buttons usable).
  const disabled = info.data?.enable_online_topup === false;
  // undefined: untouched, so the amount follows the minimum (the status may arrive after the first paint).
  const [entered, setEntered] = useState<number | null | undefined>(undefined);
  const [confirming, setConfirming] = useState<PaymentMethod | null>(null);
  const [payError, setPayError] = useState<string | null>(null);
  const pay = usePay();

  const amount = entered === undefined ? min : entered;
  const valid = amount !== null && Number.isInteger(amount) && amount >= min;
  const amountError =
    amount === null ? t('errors:pay_amount_invalid') : amount < min ? t('errors:pay_amount_too_small', { min }) : null;
  const quoteAmount = useDebouncedValue(valid ? amount : null, 400);
  const quote = usePayQuote(quoteAmount);
  const quoteSettled = quoteAmount === (valid ? amount : null);

  const setAmount = (value: number | null) => {
    // Whole units, never below 1 (the spec forces at least 1; the minimum is checked on top).
    setEntered(value === null ? null : Math.max(1, Math.trunc(value)));
    setPayError(null);
  };

  const startPay = (method: PaymentMethod) => {
    if (disabled) {
      notify.error(t('errors:pay_not_enabled'));
      return;
    }
    if (!valid) {
      notify.error(amountError ?? t('errors:pay_amount_invalid'));
      return;
    }
    setPayError(null);
    setConfirming(method);
  };

  const confirmPay = () => {
    if (!confirming || !valid) return;
    pay.mutate(
      { amount, payment_method: confirming },
      {
        onSuccess: (order) => {
          notify.info(t('wallet.redirecting'));
          submitPaymentForm(order.url, order.fields);
          setConfirming(null);
        },
        onError: (error) => {
          setPayError(error instanceof Error ? error.message : String(error));
          setConfirming(null);
        },
      },
    );
  };

  let payable: ReactNode;
  if (!valid) payable = <Typography.Text type="secondary">—</Typography.Text>;
  else if (!quoteSettled || quote.isFetching)
    payable = (
      <Typography.Text type="secondary">
        <LoadingOutlined /> {t('wallet.payable_loading')}
      </Typography.Text>
    );
  else if (quote.isError) payable = <Typography.Text type="danger">{(quote.error as Error).message}</Typography.Text>;
  else payable = <span className="wallet-payable-value">{t('wallet.money', { money: quote.data })}</span>;

  // The operator has not set up a payment gateway: no payment method works, so none is offered.
  if (disabled) return null;
  // Until the server says whether paying is on, a skeleton: buttons shown and then taken away read as broken.
  if (info.isPending) return <Card className="wallet-card" loading data-testid="wallet-topup-loading" />;

  return (
    <Card
      className="wallet-card"
      title={
        <Flex align="center" gap={8}>
          <CreditCardOutlined />
          {t('wallet.online_title')}
        </Flex>
      }
    >
      <Flex vertical gap={16}>
        {info.isError && <Alert type="error" showIcon title={(info.error as Error).message} />}
        <div>
          <label className="wallet-label" htmlFor="wallet-amount">
            {t('wallet.amount')}
          </label>
          <InputNumber
            id="wallet-amount"
            data-testid="wallet-amount"
            value={amount}
            min={1}
            precision={0}
            step={1}
            status={amountError ? 'error' : undefined}
            onChange={(value) => setAmount(typeof value === 'number' ? value : null)}
            style={{ width: '100%' }}
            size="large"
          />
          <div className="wallet-hint">
            {amountError ? (
              <Typography.Text type="danger">{amountError}</Typography.Text>
            ) : (
              <Typography.Text type="secondary">
                {t('wallet.amount_help', { min, value: formatQuota((amount ?? 0) * quotaPerUnit) })}
              </Typography.Text>
            )}
          </div>
          <div className="wallet-presets">
            {presetsFrom(info.data?.amount_options, min).map((preset) => {
              const factor = discountOf(info.data?.discount, preset);
              return (
                <Button
                  key={preset}
                  type={amount === preset ? 'primary' : 'default'}
                  ghost={amount === preset}
                  onClick={() => setAmount(preset)}
                  className="wallet-preset"
                >
                  {preset}
                  {factor !== null && (
                    <span className="wallet-preset-discount">
                      {t('wallet.discount', {
                        value: Number((factor * 10).toFixed(2)),
                        percent: Math.round((1 - factor) * 100),
                      })}
                    </span>
                  )}
                </Button>
              );
            })}
          </div>
        </div>

        <Flex justify="space-between" align="center" className="wallet-payable" gap={8}>
          <Typography.Text type="secondary">{t('wallet.payable')}</Typography.Text>
          <div data-testid="wallet-payable">{payable}</div>
        </Flex>

        <div className="wallet-methods">
          {(Object.keys(METHODS) as PaymentMethod[]).map((method) => (
            <Button
              key={method}
              size="large"
              icon={METHODS[method].icon}
              className={METHODS[method].className}
              onClick={() => startPay(method)}
              loading={pay.isPending && pay.variables?.payment_method === method}
              data-testid={`wallet-pay-${method}`}
            >
              {t(METHODS[method].labelKey)}
            </Button>
          ))}
        </div>

        {payError && <Alert type="error" showIcon title={payError} closable={{ onClose: () => setPayError(null) }} />}
      </Flex>

      <Modal
        open={confirming !== null}
        title={t('wallet.confirm_title')}
        okText={t('wallet.confirm_pay')}
        cancelText={t('ui.cancel')}
        onOk={confirmPay}
        onCancel={() => setConfirming(null)}
        confirmLoading={pay.isPending}
        destroyOnHidden
      >
        {confirming && valid && (
          <Descriptions column={1} size="small" bordered className="wallet-confirm">
            <Descriptions.Item label={t('wallet.amount')}>{amount}</Descriptions.Item>
            <Descriptions.Item label={t('wallet.credit')}>{formatQuota(amount * quotaPerUnit)}</Descriptions.Item>
            <Descriptions.Item label={t('wallet.payable')}>
              {quote.data && quoteSettled ? t('wallet.money', { money: quote.data }) : '—'}
            </Descriptions.Item>
            <Descriptions.Item label={t('wallet.method')}>
              <Flex align="center" gap={6}>
                <span className={METHODS[confirming].className}>{METHODS[confirming].icon}</span>
                {t(METHODS[confirming].labelKey)}
              </Flex>
            </Descriptions.Item>
          </Descriptions>
        )}
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          {t('wallet.confirm_hint')}
        </Typography.Paragraph>
      </Modal>
    </Card>
  );
}
