import { LIMIT_KINDS, LIMIT_VALUE_MAX, type LimitKind } from '@gateway/shared';
import { Col, Form, InputNumber, Row } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';

const FIELD: Record<LimitKind, 'rpm_limit' | 'tpm_limit' | 'concurrency_limit'> = {
  rpm: 'rpm_limit',
  tpm: 'tpm_limit',
  concurrency: 'concurrency_limit',
};

/** Empty (no limit of its own) or a whole number the server accepts; the server's own words when not. */
function limitRule(message: string): Rule {
  return {
    validator: (_, value: number | null | undefined) =>
      value === null || value === undefined || (Number.isSafeInteger(value) && value >= 0 && value <= LIMIT_VALUE_MAX)
        ? Promise.resolve()
        : Promise.reject(new Error(message)),
  };
}

/**
 * Requests per minute, tokens per minute and concurrent requests as three optional numbers, for the token form and
 * the user form (`scope` picks the help text: what empty means differs between them).
 */
export function LimitFormItems({ scope }: { scope: 'token' | 'user' }) {
  const { t } = useTranslation();
  return (
    <Row gutter={12}>
      {LIMIT_KINDS.map((kind) => (
        <Col key={kind} xs={24} sm={8}>
          <Form.Item
            name={FIELD[kind]}
            label={t(`limits.${kind}`)}
            rules={[limitRule(t(`errors:limit_${kind}_invalid`))]}
          >
            <InputNumber
              min={0}
              precision={0}
              style={{ width: '100%' }}
              placeholder={t(scope === 'token' ? 'limits.placeholder_token' : 'limits.placeholder_user')}
              aria-label={t(`limits.${kind}`)}
            />
          </Form.Item>
        </Col>
      ))}
      <Col xs={24}>
        <div className="limits-help">{t(scope === 'token' ? 'limits.help_token' : 'limits.help_user')}</div>
      </Col>
    </Row>
  );
}
