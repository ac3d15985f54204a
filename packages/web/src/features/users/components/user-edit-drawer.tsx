import { DISPLAY_NAME_MAX, PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX } from '@gateway/shared';
import {
  Button,
  Descriptions,
  Drawer,
  Empty,
  Flex,
  Form,
  Input,
  InputNumber,
  Select,
  Skeleton,
  Typography,
} from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { LimitFormItems } from '../../../components/limits/limit-form-items';
import { PasskeyResetButton } from '../../../components/passkey/passkey-reset-button';
import { notify } from '../../../lib/notify';
import { useIsMobile } from '../../../lib/use-media-query';
import '../../../components/limits/limits.css';
import { useFormatQuota } from '../../../hooks/use-format-quota';
import { useGroups } from '../api/use-groups';
import { useUpdateUser } from '../api/use-update-user';
import { useUser } from '../api/use-user';
import type { UserDetail } from '../types';
import { CustomBindingsAdmin } from './custom-bindings-admin';
import { UserSubscriptions } from './user-subscriptions';

interface UserEditDrawerProps {
  open: boolean;
  /** The user to edit; kept while the drawer closes so its content does not flicker. */
  userId: number | undefined;
  onClose: () => void;
}

interface EditValues {
  username: string;
  display_name: string;
  password: string;
  group: string;
  quota: number | null;
  email: string;
  remark: string;
  rpm_limit: number | null;
  tpm_limit: number | null;
  concurrency_limit: number | null;
}

/** Edit user (spec 000 §5): password optional (hint: at least 8), quota sent as an integer. */
export function UserEditDrawer({ open, userId, onClose }: UserEditDrawerProps) {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const user = useUser(open ? userId : undefined);
  return (
    <Drawer open={open} onClose={onClose} title={t('users.edit_title')} size={isMobile ? '100%' : 520} destroyOnHidden>
      {user.isError ? (
        <Empty description={user.error instanceof Error ? user.error.message : t('users.load_one_failed')}>
          <Button onClick={() => void user.refetch()}>{t('common.retry')}</Button>
        </Empty>
      ) : user.data ? (
        <UserEditForm key={user.data.id} user={user.data} onDone={onClose} />
      ) : (
        <Skeleton active paragraph={{ rows: 8 }} />
      )}
    </Drawer>
  );
}

const BINDINGS = [
  { field: 'github_id', labelKey: 'users.binding_github' },
  { field: 'oidc_id', labelKey: 'users.binding_oidc' },
  { field: 'wechat_id', labelKey: 'users.binding_wechat' },
  { field: 'telegram_id', labelKey: 'users.binding_telegram' },
  { field: 'linux_do_id', labelKey: 'users.binding_linuxdo' },
] as const;

function UserEditForm({ user, onDone }: { user: UserDetail; onDone: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<EditValues>();
  const formatQuota = useFormatQuota();
  const groups = useGroups();
  const update = useUpdateUser();
  const quota = Form.useWatch('quota', form);

  const groupOptions = useMemo(() => {
    const names = new Set(groups.data ?? []);
    if (user.group) names.add(user.group);
    return [...names].map((name) => ({ value: name, label: name }));
  }, [groups.data, user.group]);

  const initialValues: EditValues = {
    username: user.username,
    display_name: user.display_name ?? '',
    password: '',
    group: user.group || 'default',
    quota: user.quota,
    email: user.email ?? '',
    remark: user.remark ?? '',
    rpm_limit: user.rpm_limit ?? null,
    tpm_limit: user.tpm_limit ?? null,
    concurrency_limit: user.concurrency_limit ?? null,
  };

  const onFinish = (values: EditValues) =>
    update.mutate(
      {
        id: user.id,
        username: values.username.trim(),
        display_name: (values.display_name ?? '').trim(),
        password: values.password ?? '',
        group: values.group,
        quota: Math.trunc(values.quota ?? 0),
        email: (values.email ?? '').trim(),
        remark: values.remark ?? '',
        rpm_limit: values.rpm_limit ?? null,
        tpm_limit: values.tpm_limit ?? null,
        concurrency_limit: values.concurrency_limit ?? null,
      },
      {
        onSuccess: () => {
          notify.success(t('errors:user_updated'));
          onDone();
        },
      },
    );

  return (
    <Form<EditValues>
      form={form}
      layout="vertical"
      initialValues={initialValues}
      onFinish={onFinish}
      data-testid="user-form"
      autoComplete="off"
    >
      <Form.Item
        name="username"
        label={t('users.field_username')}
        rules={[
          { required: true, whitespace: true, message: t('errors:user_username_password_required') },
          { max: USERNAME_MAX, message: t('errors:user_username_too_long') },
        ]}
      >
        <Input maxLength={USERNAME_MAX} autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="display_name"
        label={t('users.field_display_name')}
        rules={[{ max: DISPLAY_NAME_MAX, message: t('errors:user_display_name_too_long') }]}
      >
        <Input placeholder={t('users.field_display_name_placeholder')} maxLength={DISPLAY_NAME_MAX} />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('users.field_password')}
        extra={t('users.field_password_keep')}
        rules={[
          { min: PASSWORD_MIN, message: t('errors:password_too_short') },
          { max: PASSWORD_MAX, message: t('errors:password_too_long') },
        ]}
      >
        <Input.Password placeholder={t('users.field_password_optional')} autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="group" label={t('users.field_group')}>
        <Select options={groupOptions} loading={groups.isPending} showSearch aria-label={t('users.field_group')} />
      </Form.Item>
      <Form.Item
        label={t('users.field_quota')}
        extra={t('users.field_quota_equals', { value: formatQuota(quota ?? 0) })}
      >
        <Form.Item
          name="quota"
          noStyle
          rules={[
            {
              validator: (_, value: number | null) =>
                Number.isSafeInteger(value)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('errors:user_quota_invalid'))),
            },
          ]}
        >
          <InputNumber precision={0} style={{ width: '100%' }} aria-label={t('users.field_quota')} />
        </Form.Item>
      </Form.Item>
      <Form.Item
        name="email"
        label={t('users.field_email')}
        rules={[{ type: 'email', message: t('errors:user_email_invalid') }]}
      >
        <Input placeholder={t('users.field_email_placeholder')} autoComplete="off" />
      </Form.Item>
      <Form.Item name="remark" label={t('users.field_remark')}>
        <Input.TextArea
          autoSize={{ minRows: 2, maxRows: 5 }}
          maxLength={255}
          showCount
          placeholder={t('users.field_remark_placeholder')}
        />
      </Form.Item>

      <Typography.Title level={5}>{t('limits.section')}</Typography.Title>
      <LimitFormItems scope="user" />

      <UserSubscriptions userId={user.id} />

      <Typography.Title level={5}>{t('users.bindings')}</Typography.Title>
      <Descriptions
        size="small"
        bordered
        column={1}
        style={{ marginBottom: 24 }}
        items={BINDINGS.map((binding) => ({
          key: binding.field,
          label: t(binding.labelKey),
          children: user[binding.field] ? (
            <Typography.Text className="mono-text" copyable>
              {user[binding.field]}
            </Typography.Text>
          ) : (
            <Typography.Text type="secondary">{t('users.not_bound')}</Typography.Text>
          ),
        }))}
      />
      <CustomBindingsAdmin userId={user.id} />
      <PasskeyResetButton userId={user.id} username={user.username} />

      <Flex gap={8} justify="flex-end">
        <Button onClick={onDone}>{t('ui.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={update.isPending}>
          {t('ui.save')}
        </Button>
      </Flex>
    </Form>
  );
}
