import { Card, Flex, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useIsMobile } from '../../lib/use-media-query';
import './list.css';

interface ListPageCardProps {
  title: ReactNode;
  subtitle: ReactNode;
  /** Beside the title (stats, switches, a refresh button); wraps under it on a narrow screen. */
  extra?: ReactNode;
  /** Extra classes on the page container (the width it may take). */
  className?: string;
  /** Outside the card: drawers and modals the page opens. */
  overlays?: ReactNode;
  children: ReactNode;
}

/** The frame of a console list page: a wide container, one card with tighter padding on a phone, title and subtitle. */
export function ListPageCard({ title, subtitle, extra, className, overlays, children }: ListPageCardProps) {
  const isMobile = useIsMobile();
  const heading = (
    <div>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {title}
      </Typography.Title>
      <Typography.Text type="secondary">{subtitle}</Typography.Text>
    </div>
  );
  return (
    <div className={`page-container ${className ?? 'page-container-wide'}`}>
      <Card styles={{ body: { padding: isMobile ? 12 : 24 } }}>
        <Flex vertical gap={16}>
          {extra === undefined ? (
            heading
          ) : (
            <Flex justify="space-between" align="flex-start" gap={12} wrap>
              {heading}
              {extra}
            </Flex>
          )}
          {children}
        </Flex>
      </Card>
      {overlays}
    </div>
  );
}
