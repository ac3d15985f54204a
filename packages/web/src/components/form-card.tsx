import { Card, Typography } from 'antd';
import type { ReactNode } from 'react';
import { BrandLogo } from './brand';

interface FormCardProps {
  title: ReactNode;
  subtitle?: ReactNode;
  width?: number;
  children: ReactNode;
}

/** The centred card used by sign-in and setup: logo, title, a short line, then the form. */
export function FormCard({ title, subtitle, width = 420, children }: FormCardProps) {
  return (
    <div className="form-card-page">
      <Card className="form-card" style={{ maxWidth: width }}>
        <div className="form-card-head">
          <BrandLogo size={48} />
          <Typography.Title level={3} style={{ margin: '12px 0 4px' }}>
            {title}
          </Typography.Title>
          {subtitle && <Typography.Text type="secondary">{subtitle}</Typography.Text>}
        </div>
        {children}
      </Card>
    </div>
  );
}
