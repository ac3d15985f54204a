import { Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { useBatchTag } from '../api/use-batch-tag';

/** Puts one tag on every selected channel. */
export function BatchTagModal({
  ids,
  open,
  onClose,
}: {
  ids: number[];
  open: boolean;
  onClose: (done: boolean) => void;
}) {
  const { t } = useTranslation();
  const [tag, setTag] = useState('');
  const batchTag = useBatchTag();

  const submit = () => {
    if (tag.trim() === '') {
      notify.error(t('errors:channel_tag_required'));
      return;
    }
    batchTag.mutate(
      { ids, tag: tag.trim() },
      {
        onSuccess: () => {
          notify.success(t('channel.batch_tag_done', { count: ids.length }));
          setTag('');
          onClose(true);
        },
      },
    );
  };

  return (
    <Modal
      open={open}
      title={t('channel.batch_tag_title', { count: ids.length })}
      onCancel={() => onClose(false)}
      onOk={submit}
      okText={t('ui.save')}
      cancelText={t('ui.cancel')}
      confirmLoading={batchTag.isPending}
      destroyOnHidden
    >
      <Form layout="vertical" onFinish={submit}>
        <Form.Item label={t('channel.tag_name')} htmlFor="batch-tag-input">
          <Input
            id="batch-tag-input"
            value={tag}
            onChange={(event) => setTag(event.target.value)}
            placeholder={t('channel.tag_placeholder')}
            maxLength={128}
            autoFocus
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
