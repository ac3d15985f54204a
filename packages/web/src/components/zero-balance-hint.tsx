import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSelf } from '../hooks/use-self';
import { usePublicStatus } from '../hooks/use-status';

/**
 * A user with nothing to spend gets told what comes next (top up or redeem a code) instead of finding out from a
 * refused call. Self-use mode charges nobody, so it says nothing there.
 */
export function ZeroBalanceHint({ showWalletLink = true }: { showWalletLink?: boolean }) {
  const { t } = useTranslation();
  const self = useSelf();
  const status = usePublicStatus();
  if (!self.data || self.data.quota > 0 || status.self_use_mode_enabled) return null;
  return (
    <Alert
      type="info"
      showIcon
      data-testid="zero-balance-hint"
      title={t('wallet.zero_balance_hint')}
      action={
        showWalletLink ? (
          <Link to="/topup">
            <Button size="small" type="primary">
              {t('wallet.zero_balance_action')}
            </Button>
          </Link>
        ) : undefined
      }
    />
  );
}
