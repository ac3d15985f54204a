import {
  AlipayCircleOutlined,
  BankOutlined,
  CrownOutlined,
  ShoppingOutlined,
  WalletOutlined,
  WechatOutlined,
} from '@ant-design/icons';
import {
  Alert,
  Button,
  type ButtonProps,
  Card,
  Descriptions,
  Flex,
  Modal,
  Radio,
  Skeleton,
  Tag,
  Typography,
} from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { durationText, periodText, priceText } from '../../../components/subscription/plan-text';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { useSelf } from '../../../hooks/use-self';
import { usePublicStatus } from '../../../hooks/use-status';
import { notify } from '../../../lib/notify';
import { quotaDisplayFrom } from '../../../lib/quota';
import type { PlanRecord } from '../../../lib/subscriptions';
import { goToCheckout } from '../api/use-card-pay';
import { type PlanPayMethod, useBuyPlan, useSubscriptionPlans } from '../api/use-subscription';
import { useTopUpInfo } from '../api/use-topup-info';
import { submitPaymentForm } from '../submit-payment-form';

const METHODS: Record<PlanPayMethod, { labelKey: string; icon: ReactNode }> = {
  balance: { labelKey: 'subscription.method_balance', icon: <WalletOutlined /> },
  zfb: { labelKey: 'wallet.method_zfb', icon: <AlipayCircleOutlined /> },
  wx: { labelKey: 'wallet.method_wx', icon: <WechatOutlined /> },
  stripe: { labelKey: 'wallet.method_stripe', icon: <BankOutlined /> },
  creem: { labelKey: 'wallet.method_creem', icon: <ShoppingOutlined /> },
};

/**
 * The ways a plan can be paid, as the wallet's top-up offers them: the balance when the plan allows it, epay when
 * online top-up is on, Stripe and Creem when set up and the plan names its price or product there.
 */
function methodsFor(plan: PlanRecord, info: ReturnType<typeof useTopUpInfo>['data']): PlanPayMethod[] {
  const methods: PlanPayMethod[] = [];
  if (plan.allow_balance_pay) methods.push('balance');
  if (info?.enable_online_topup && plan.price_amount >= 0.01) methods.push('zfb', 'wx');
  if (info?.enable_stripe_topup && plan.stripe_price_id) methods.push('stripe');
  if ((info?.enable_creem_subscription ?? info?.enable_creem_topup) && plan.creem_product_id) methods.push('creem');
  return methods;
}

/** Plans on sale, one card each; buying asks for the way to pay and shows the cost before anything is charged. */
export function SubscriptionPlansCard() {
  const { t } = useTranslation();
  const plans = useSubscriptionPlans();
  const info = useTopUpInfo();
  const [chosen, setChosen] = useState<PlanRecord | null>(null);

  // Nothing on sale: no card at all, so a gateway without plans shows the wallet as before.
  if (plans.isSuccess && plans.data.length === 0) return null;

  return (
    <Card
      className="wallet-card"
      title={
        <Flex align="center" gap={8}>
          <CrownOutlined />
          {t('subscription.plans_title')}
        </Flex>
      }
      data-testid="wallet-plans"
    >
      {plans.isPending ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : plans.isError ? (
        <Alert type="error" showIcon title={(plans.error as Error).message} />
      ) : (
        <div className="wallet-plans">
          {plans.data.map((plan) => (
            <PlanCard
              key={plan.id}
              plan={plan}
              buyable={methodsFor(plan, info.data).length > 0}
              onBuy={() => setChosen(plan)}
            />
          ))}
        </div>
      )}
      {chosen && <BuyPlanModal plan={chosen} methods={methodsFor(chosen, info.data)} onClose={() => setChosen(null)} />}
    </Card>
  );
}

function PlanCard({ plan, buyable, onBuy }: { plan: PlanRecord; buyable: boolean; onBuy: () => void }) {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  return (
    <Card size="small" className="wallet-plan" data-testid={`wallet-plan-${plan.id}`}>
      <Flex vertical gap={8}>
        <div>
          <Typography.Text strong className="wallet-plan-title">
            {plan.title}
          </Typography.Text>
          {plan.subtitle && (
            <Typography.Paragraph type="secondary" className="wallet-plan-subtitle" ellipsis={{ rows: 2 }}>
              {plan.subtitle}
            </Typography.Paragraph>
          )}
        </div>
        <div className="wallet-plan-price">{priceText(plan)}</div>
        <dl className="wallet-plan-facts">
          <dt>{t('subscription.col_quota')}</dt>
          <dd>{formatQuota(plan.total_amount)}</dd>
          <dt>{t('subscription.col_period')}</dt>
          <dd>{periodText(t, plan)}</dd>
          <dt>{t('subscription.col_duration')}</dt>
          <dd>{durationText(t, plan)}</dd>
          {plan.upgrade_group && (
            <>
              <dt>{t('subscription.col_group')}</dt>
              <dd>
                <Tag style={{ marginInlineEnd: 0 }}>{plan.upgrade_group}</Tag>
              </dd>
            </>
          )}
          {plan.max_purchase_per_user > 0 && (
            <>
              <dt>{t('subscription.col_limit')}</dt>
              <dd>{plan.max_purchase_per_user}</dd>
            </>
          )}
        </dl>
        <Button type="primary" block disabled={!buyable} onClick={onBuy} data-testid="wallet-plan-buy">
          {buyable ? t('subscription.buy') : t('subscription.not_buyable')}
        </Button>
      </Flex>
    </Card>
  );
}

function BuyPlanModal({ plan, methods, onClose }: { plan: PlanRecord; methods: PlanPayMethod[]; onClose: () => void }) {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  const { quotaPerUnit } = quotaDisplayFrom(usePublicStatus());
  const self = useSelf();
  const buy = useBuyPlan();
  const [method, setMethod] = useState<PlanPayMethod>(methods[0] ?? 'balance');
  const [error, setError] = useState<string | null>(null);
  // The balance pays the price in quota: one unit of money is the operator's quota per unit.
  const balanceCost = Math.round(plan.price_amount * quotaPerUnit);
  const balance = self.data?.quota;
  const short = method === 'balance' && balance !== undefined && balance < balanceCost;

  const confirm = () => {
    setError(null);
    buy.mutate(
      { planId: plan.id, method },
      {
        onSuccess: (purchase) => {
          if (purchase.kind === 'done') {
            notify.success(t('subscription.bought', { title: plan.title }));
            onClose();
            return;
          }
          notify.info(t('wallet.redirecting'));
          if (purchase.kind === 'epay') submitPaymentForm(purchase.order.url, purchase.order.fields);
          else goToCheckout(purchase.url);
        },
        onError: (failure) => setError(failure instanceof Error ? failure.message : String(failure)),
      },
    );
  };

  return (
    <Modal
      open
      title={t('subscription.buy_title', { title: plan.title })}
      okText={method === 'balance' ? t('subscription.pay_balance') : t('wallet.confirm_pay')}
      cancelText={t('ui.cancel')}
      onOk={confirm}
      onCancel={onClose}
      confirmLoading={buy.isPending}
      okButtonProps={{ disabled: methods.length === 0 || short, 'data-testid': 'wallet-plan-confirm' } as ButtonProps}
      destroyOnHidden
    >
      <Flex vertical gap={12}>
        <Radio.Group
          value={method}
          onChange={(event) => {
            setMethod(event.target.value as PlanPayMethod);
            setError(null);
          }}
          aria-label={t('wallet.method')}
          className="wallet-plan-methods"
        >
          {methods.map((option) => (
            <Radio.Button key={option} value={option} data-testid={`wallet-plan-method-${option}`}>
              <Flex align="center" gap={6}>
                {METHODS[option].icon}
                {t(METHODS[option].labelKey)}
              </Flex>
            </Radio.Button>
          ))}
        </Radio.Group>
        <Descriptions column={1} size="small" bordered className="wallet-confirm">
          <Descriptions.Item label={t('subscription.col_title')}>{plan.title}</Descriptions.Item>
          <Descriptions.Item label={t('subscription.col_quota')}>
            {formatQuota(plan.total_amount)} · {periodText(t, plan)}
          </Descriptions.Item>
          <Descriptions.Item label={t('subscription.col_duration')}>{durationText(t, plan)}</Descriptions.Item>
          <Descriptions.Item label={t('wallet.payable')}>
            <span data-testid="wallet-plan-cost">
              {method === 'balance'
                ? t('subscription.cost_balance', { value: formatQuota(balanceCost) })
                : priceText(plan)}
            </span>
          </Descriptions.Item>
          {method === 'balance' && balance !== undefined && (
            <Descriptions.Item label={t('subscription.balance_after')}>
              {formatQuota(Math.max(0, balance - balanceCost))}
            </Descriptions.Item>
          )}
        </Descriptions>
        {short && <Alert type="warning" showIcon title={t('subscription.balance_short')} />}
        <Typography.Text type="secondary">
          {method === 'balance' ? t('subscription.balance_hint') : t('subscription.redirect_hint')}
        </Typography.Text>
        {error && <Alert type="error" showIcon title={error} data-testid="wallet-plan-error" />}
      </Flex>
    </Modal>
  );
}
