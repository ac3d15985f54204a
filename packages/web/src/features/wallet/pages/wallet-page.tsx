import { Col, Flex, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ZeroBalanceHint } from '../../../components/zero-balance-hint';
import { BalanceCard } from '../components/balance-card';
import { CheckinCard } from '../components/checkin-card';
import { CreemTopUpCard } from '../components/creem-topup-card';
import { MySubscriptionCard } from '../components/my-subscription-card';
import { OnlineTopUpCard } from '../components/online-topup-card';
import { PaymentResult } from '../components/payment-result';
import { RedeemCard } from '../components/redeem-card';
import { SubscriptionPlansCard } from '../components/subscription-plans-card';
import { TopUpHistoryCard } from '../components/topup-history-card';
import '../wallet.css';

/**
 * My wallet: the balance, my subscriptions, the daily check-in (when on), redeeming a code, the plans on sale and
 * online top-up (spec 001, Wallet).
 */
export default function WalletPage() {
  const { t } = useTranslation();
  return (
    <div className="page-container wallet-page">
      <Flex vertical gap={16}>
        <div>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('wallet.title')}
          </Typography.Title>
          <Typography.Text type="secondary">{t('wallet.subtitle')}</Typography.Text>
        </div>
        <PaymentResult />
        <ZeroBalanceHint showWalletLink={false} />
        {/* Phones: balance, redeem, online top-up in one column. Wider: the balance and redeeming on the left. */}
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={10}>
            <Flex vertical gap={16}>
              <BalanceCard />
              <MySubscriptionCard />
              <CheckinCard />
              <RedeemCard />
            </Flex>
          </Col>
          <Col xs={24} lg={14}>
            <Flex vertical gap={16}>
              <SubscriptionPlansCard />
              <OnlineTopUpCard />
              <CreemTopUpCard />
              <TopUpHistoryCard />
            </Flex>
          </Col>
        </Row>
      </Flex>
    </div>
  );
}
