import {
  ApiOutlined,
  BarChartOutlined,
  CloudServerOutlined,
  DollarOutlined,
  ReadOutlined,
  RocketOutlined,
  TagsOutlined,
} from '@ant-design/icons';
import { Button, Card, Col, Row, Space, Typography, theme } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useBrand } from '../../../components/brand';
import { usePublicStatus } from '../../../hooks/use-status';

interface Feature {
  key: string;
  icon: ReactNode;
}

const FEATURES: Feature[] = [
  { key: 'compat', icon: <ApiOutlined /> },
  { key: 'providers', icon: <CloudServerOutlined /> },
  { key: 'billing', icon: <DollarOutlined /> },
  { key: 'insight', icon: <BarChartOutlined /> },
];

// Inline so they outrank antd's typography rules.
const TITLE_STYLE: CSSProperties = {
  fontSize: 'clamp(32px, 6vw, 48px)',
  marginBottom: 16,
  background: 'linear-gradient(90deg, #4f46e5, #0ea5e9)',
  WebkitBackgroundClip: 'text',
  backgroundClip: 'text',
  color: 'transparent',
};
const PITCH_STYLE: CSSProperties = { fontSize: 'clamp(15px, 2.4vw, 18px)', maxWidth: 640, marginBottom: 32 };

/** The landing page shown until the operator writes their own home page content. */
export function DefaultLanding() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const status = usePublicStatus();
  const brand = useBrand();
  const baseUrl = `${(status.server_address || window.location.origin).replace(/\/+$/, '')}/v1`;

  return (
    <div className="landing" data-testid="default-landing">
      <section className="landing-hero">
        <Typography.Title level={1} style={TITLE_STYLE}>
          {brand.name}
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={PITCH_STYLE}>
          {t('home.pitch')}
        </Typography.Paragraph>
        <Space wrap size="middle" className="landing-actions">
          <Button type="primary" size="large" icon={<RocketOutlined />} onClick={() => navigate('/token')}>
            {t('home.open_console')}
          </Button>
          <Button size="large" icon={<TagsOutlined />} onClick={() => navigate('/pricing')}>
            {t('home.view_pricing')}
          </Button>
          {status.docs_link && (
            <Button
              size="large"
              icon={<ReadOutlined />}
              href={status.docs_link}
              target="_blank"
              rel="noopener noreferrer"
            >
              {t('home.docs')}
            </Button>
          )}
        </Space>
        <Card size="small" className="landing-base-url" style={{ borderColor: token.colorBorderSecondary }}>
          <Typography.Text type="secondary">{t('home.base_url')}</Typography.Text>
          <Typography.Text code copyable className="landing-base-url-value" data-testid="base-url">
            {baseUrl}
          </Typography.Text>
        </Card>
      </section>
      <Row gutter={[16, 16]} className="landing-features">
        {FEATURES.map((feature) => (
          <Col key={feature.key} xs={24} sm={12} lg={6}>
            <Card className="landing-feature" hoverable>
              <div
                className="landing-feature-icon"
                style={{ color: token.colorPrimary, background: token.colorPrimaryBg }}
              >
                {feature.icon}
              </div>
              <Typography.Title level={5}>{t(`home.features.${feature.key}.title`)}</Typography.Title>
              <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
                {t(`home.features.${feature.key}.desc`)}
              </Typography.Paragraph>
            </Card>
          </Col>
        ))}
      </Row>
    </div>
  );
}
