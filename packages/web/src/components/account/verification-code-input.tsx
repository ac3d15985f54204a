import { SafetyOutlined } from '@ant-design/icons';
import { RESEND_COOLDOWN_SECONDS } from '@gateway/shared';
import { Button, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSendVerification } from '../../hooks/account/use-send-verification';
import { useCountdown } from '../../hooks/use-countdown';
import { notify } from '../../lib/notify';

interface VerificationCodeInputProps {
  /** The address to send the code to, as typed so far. */
  email: string;
  /** The form's human check: a code mail needs a token when the operator turned the check on. */
  humanCheck: { enabled: boolean; token: string; renew(): void };
  /** Set by Form.Item so the field's label points at the input. */
  id?: string;
  size?: 'middle' | 'large';
  value?: string;
  onChange?: (value: string) => void;
}

/**
 * The code field with its "send code" button. After a send the button waits 30 seconds (spec 000 §4), which is
 * also the server's per-IP allowance, so a person never meets the limit by clicking.
 */
export function VerificationCodeInput({
  email,
  humanCheck,
  id,
  size = 'large',
  value,
  onChange,
}: VerificationCodeInputProps) {
  const { t } = useTranslation();
  const send = useSendVerification();
  const countdown = useCountdown(RESEND_COOLDOWN_SECONDS);

  const onSend = () => {
    const address = email.trim();
    if (!address) {
      notify.error(t('errors:email_required'));
      return;
    }
    if (humanCheck.enabled && !humanCheck.token) {
      notify.info(t('errors:turnstile_pending'));
      return;
    }
    send.mutate(
      { email: address, turnstile: humanCheck.token },
      {
        onSuccess: (envelope) => {
          notify.success(envelope.message || t('account.code_sent'));
          countdown.start();
        },
        onSettled: () => humanCheck.renew(),
      },
    );
  };

  return (
    <Space.Compact style={{ width: '100%' }}>
      <Input
        id={id}
        prefix={<SafetyOutlined />}
        placeholder={t('account.code_placeholder')}
        autoComplete="one-time-code"
        inputMode="numeric"
        size={size}
        value={value}
        onChange={(event) => onChange?.(event.target.value)}
      />
      <Button size={size} onClick={onSend} loading={send.isPending} disabled={countdown.running}>
        {countdown.running ? t('account.resend_in', { seconds: countdown.remaining }) : t('account.send_code')}
      </Button>
    </Space.Compact>
  );
}
