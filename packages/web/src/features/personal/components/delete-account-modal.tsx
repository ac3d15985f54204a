import { Alert, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { useDeleteSelf } from '../api/use-delete-self';

interface DeleteAccountModalProps {
  open: boolean;
  username: string;
  onClose: () => void;
}

/** Delete own account: the typed text must equal the user's own username (spec 000 §5). */
export function DeleteAccountModal({ open, username, onClose }: DeleteAccountModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ confirm: string }>();
  const remove = useDeleteSelf();

  const onFinish = () =>
    remove.mutate(undefined, {
      onSuccess: () => notify.success(t('errors:self_deleted')),
    });

  return (
    <Modal
      open={open}
      title={t('personal.delete_title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('personal.delete_submit')}
      okButtonProps={{ danger: true }}
      cancelText={t('ui.cancel')}
      confirmLoading={remove.isPending}
      destroyOnHidden
    >
      <Alert type="error" showIcon title={t('personal.delete_warning')} style={{ marginBottom: 16 }} />
      <Form form={form} layout="vertical" onFinish={onFinish} data-testid="personal-delete-form">
        <Form.Item
          name="confirm"
          label={t('personal.delete_label', { username })}
          rules={[
            {
              validator: (_, value: string | undefined) =>
                value === username ? Promise.resolve() : Promise.reject(new Error(t('personal.delete_mismatch'))),
            },
          ]}
        >
          <Input placeholder={username} autoComplete="off" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
