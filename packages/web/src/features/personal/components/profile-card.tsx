import { DISPLAY_NAME_MAX, type SelfUser } from '@gateway/shared';
import { Avatar, Card, Col, Divider, Flex, Row, Statistic, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { useUserModels } from '../../../hooks/use-user-models';
import { notify } from '../../../lib/notify';
import { ROLE_TAGS, UNKNOWN_ROLE } from '../../../lib/user-view';
import { useUpdateSelf } from '../api/use-update-self';
import { ModelList } from './model-list';

interface ProfileCardProps {
  user: SelfUser;
  onCopy: (text: string, successText?: string) => void;
}

/** Who the user is, what they have, what they used, and which models they can call. */
export function ProfileCard({ user, onCopy }: ProfileCardProps) {
  const { t } = useTranslation();
  const formatQuota = useFormatQuota();
  const models = useUserModels();
  const update = useUpdateSelf();
  const name = user.display_name || user.username;
  // Three roles, not two: an admin (10) is neither root (100) nor a common user (1).
  const role = ROLE_TAGS[user.role] ?? UNKNOWN_ROLE;

  const rename = (value: string) => {
    const next = value.trim();
    if (next === (user.display_name ?? '') || next.length > DISPLAY_NAME_MAX) return;
    update.mutate({ display_name: next }, { onSuccess: () => notify.success(t('errors:user_updated')) });
  };

  return (
    <Card data-testid="personal-profile" className="personal-card">
      <Flex gap={16} align="center" wrap>
        <Avatar size={64} className="personal-avatar">
          {name.charAt(0).toUpperCase()}
        </Avatar>
        <Flex vertical gap={4} style={{ minWidth: 0, flex: 1 }}>
          <Typography.Title
            level={4}
            style={{ margin: 0 }}
            editable={{
              onChange: rename,
              maxLength: DISPLAY_NAME_MAX,
              tooltip: t('personal.edit_display_name'),
              text: user.display_name ?? '',
            }}
          >
            {name}
          </Typography.Title>
          <Typography.Text type="secondary">
            {t('personal.username_id', { username: user.username, id: user.id })}
          </Typography.Text>
          <Flex gap={6} wrap>
            <Tag color={role.color} variant="filled" data-testid="profile-role">
              {t(role.labelKey)}
            </Tag>
            <Tag variant="filled">{t('personal.group', { group: user.group || 'default' })}</Tag>
          </Flex>
        </Flex>
      </Flex>

      <Row gutter={[16, 16]} className="personal-stats">
        <Col span={8}>
          <Statistic title={t('personal.balance')} value={formatQuota(user.quota)} />
        </Col>
        <Col span={8}>
          <Statistic title={t('personal.used')} value={formatQuota(user.used_quota)} />
        </Col>
        <Col span={8}>
          <Statistic title={t('personal.requests')} value={user.request_count} />
        </Col>
      </Row>

      <Divider titlePlacement="start" plain className="personal-divider">
        {t('personal.models_title', { count: models.data?.length ?? 0 })}
      </Divider>
      <ModelList
        models={models.data}
        loading={models.isPending}
        onCopy={(model) => onCopy(model, t('personal.model_copied', { model }))}
      />
    </Card>
  );
}
