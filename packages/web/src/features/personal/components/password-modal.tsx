import { PASSWORD_MAX, PASSWORD_MIN } from '@gateway/shared';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { useUpdateSelf } from '../api/use-update-self';

interface PasswordValues {
  original_password: string;
  password: string;
  confirm: string;
}

/** Change password (spec 000 §5): original required, new required and different, confirmation must match. */
export function PasswordModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PasswordValues>();
  const update = useUpdateSelf();

  const onFinish = (values: PasswordValues) =>
    update.mutate(
      { original_password: values.original_password, password: values.password },
      {
        onSuccess: () => {
          notify.success(t('errors:self_password_changed'));
          onClose();
        },
      },
    );

  return (
    <Modal
      open={open}
      title={t('personal.password_title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('personal.password_submit')}
      cancelText={t('ui.cancel')}
      confirmLoading={update.isPending}
      destroyOnHidden
    >
      <Form<PasswordValues>
        form={form}
        layout="vertical"
        onFinish={onFinish}
        initialValues={{ original_password: '', password: '', confirm: '' }}
        data-testid="personal-password-form"
      >
        <Form.Item
          name="original_password"
          label={t('personal.password_original')}
          rules={[{ required: true, message: t('errors:self_original_password_required') }]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('personal.password_new')}
          extra={t('personal.password_hint')}
          dependencies={['original_password']}
          rules={[
            { required: true, message: t('personal.password_new_required') },
            { min: PASSWORD_MIN, message: t('errors:password_too_short') },
            { max: PASSWORD_MAX, message: t('errors:password_too_long') },
            ({ getFieldValue }) => ({
              validator: (_, value: string) =>
                value && value === getFieldValue('original_password')
                  ? Promise.reject(new Error(t('errors:self_password_same')))
                  : Promise.resolve(),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('personal.password_confirm')}
          dependencies={['password']}
          rules={[
            { required: true, message: t('personal.password_confirm_required') },
            ({ getFieldValue }) => ({
              validator: (_, value: string) =>
                !value || value === getFieldValue('password')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('errors:passwords_do_not_match'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
