import { PASSKEY_NAME_MAX, type PasskeyView } from '@gateway/shared';
import { Form, Input, Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRenamePasskey } from '../../hooks/passkey/use-passkeys';
import { notify } from '../../lib/notify';
import { passkeyErrorText } from './passkey-errors';

type NamingState = { mode: 'add' } | { mode: 'rename'; passkey: PasskeyView } | null;

/** Asks for a passkey's name: before adding one (optional) or to rename one (required). */
export function PasskeyNameModal({
  state,
  onAdd,
  onClose,
}: {
  state: NamingState;
  onAdd: (name: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  const rename = useRenamePasskey();
  const renaming = state?.mode === 'rename' ? state.passkey : null;

  useEffect(() => {
    if (state) form.setFieldsValue({ name: renaming?.name ?? '' });
  }, [state, renaming, form]);

  const onFinish = ({ name }: { name: string }) => {
    if (!renaming) {
      onAdd(name ?? '');
      return;
    }
    rename.mutate(
      { id: renaming.id, name: name.trim() },
      {
        onSuccess: () => {
          notify.success(t('passkey.renamed'));
          onClose();
        },
        onError: (error) => notify.error(passkeyErrorText(t, error)),
      },
    );
  };

  return (
    <Modal
      open={state !== null}
      title={renaming ? t('passkey.rename') : t('passkey.add')}
      okText={renaming ? t('ui.save') : t('passkey.continue')}
      cancelText={t('ui.cancel')}
      confirmLoading={rename.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Form.Item
          name="name"
          label={t('passkey.name')}
          extra={renaming ? undefined : t('passkey.name_hint')}
          rules={[
            { required: Boolean(renaming), whitespace: true, message: t('passkey.name_required') },
            { max: PASSKEY_NAME_MAX, message: t('passkey.name_too_long', { max: PASSKEY_NAME_MAX }) },
          ]}
        >
          <Input maxLength={PASSKEY_NAME_MAX} placeholder={t('passkey.name_placeholder')} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
