import { DISPLAY_NAME_MAX, PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX } from '@gateway/shared';
import { Button, Drawer, Flex, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { useIsMobile } from '../../../lib/use-media-query';
import { useCreateUser } from '../api/use-create-user';
import type { UserCreateInput } from '../types';

interface UserCreateDrawerProps {
  open: boolean;
  onClose: () => void;
}

/** Add user (spec 000 §5): username and password required, password 8 to 20 characters. */
export function UserCreateDrawer({ open, onClose }: UserCreateDrawerProps) {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('users.create_title')}
      size={isMobile ? '100%' : 480}
      destroyOnHidden
    >
      <UserCreateForm onDone={onClose} />
    </Drawer>
  );
}

function UserCreateForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<UserCreateInput>();
  const create = useCreateUser();
  const required = { required: true, whitespace: true, message: t('errors:user_username_password_required') };

  const onFinish = (values: UserCreateInput) =>
    create.mutate(
      { username: values.username.trim(), display_name: (values.display_name ?? '').trim(), password: values.password },
      {
        onSuccess: () => {
          notify.success(t('errors:user_created'));
          onDone();
        },
      },
    );

  return (
    <Form<UserCreateInput>
      form={form}
      layout="vertical"
      onFinish={onFinish}
      initialValues={{ username: '', display_name: '', password: '' }}
      data-testid="user-form"
      autoComplete="off"
    >
      <Form.Item
        name="username"
        label={t('users.field_username')}
        rules={[required, { max: USERNAME_MAX, message: t('errors:user_username_too_long') }]}
      >
        <Input placeholder={t('users.field_username_placeholder')} maxLength={USERNAME_MAX} autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="display_name"
        label={t('users.field_display_name')}
        extra={t('users.field_display_name_help')}
        rules={[{ max: DISPLAY_NAME_MAX, message: t('errors:user_display_name_too_long') }]}
      >
        <Input placeholder={t('users.field_display_name_placeholder')} maxLength={DISPLAY_NAME_MAX} />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('users.field_password')}
        rules={[
          { required: true, message: t('errors:user_username_password_required') },
          { min: PASSWORD_MIN, message: t('errors:password_too_short') },
          { max: PASSWORD_MAX, message: t('errors:password_too_long') },
        ]}
      >
        <Input.Password placeholder={t('users.field_password_placeholder')} autoComplete="new-password" />
      </Form.Item>
      <Flex gap={8} justify="flex-end">
        <Button onClick={onDone}>{t('ui.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={create.isPending}>
          {t('ui.create')}
        </Button>
      </Flex>
    </Form>
  );
}
