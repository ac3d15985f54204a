import { CHANNEL_PRIORITY_MIN, joinModels, parseJsonObjectField } from '@gateway/shared';
import { Alert, Form, Input, InputNumber, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { useEditTag } from '../api/use-edit-tag';
import { useGroups } from '../api/use-groups';
import type { TagEdit } from '../types';

interface EditTagValues {
  new_tag: string;
  model_mapping: string;
  groups: string[];
  models: string[];
  priority: number | null;
  weight: number | null;
}

/** The changes a tag form asks for, or null when it asks for none. Empty fields mean "leave as is". */
export function tagEditFrom(tag: string, values: EditTagValues): TagEdit | null {
  const edit: TagEdit = { tag };
  const newTag = (values.new_tag ?? '').trim();
  if (newTag !== tag) edit.new_tag = newTag;
  if (values.model_mapping?.trim()) edit.model_mapping = values.model_mapping.trim();
  if (values.groups?.length) edit.groups = values.groups;
  if (values.models?.length) edit.models = joinModels(values.models);
  if (values.priority !== null && values.priority !== undefined) edit.priority = values.priority;
  if (values.weight !== null && values.weight !== undefined) edit.weight = values.weight;
  return Object.keys(edit).length > 1 ? edit : null;
}

interface EditTagModalProps {
  /** The tag being edited; null keeps the modal closed. */
  tag: string | null;
  onClose: () => void;
}

export function EditTagModal({ tag, onClose }: EditTagModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<EditTagValues>();
  const groups = useGroups();
  const editTag = useEditTag();

  const onFinish = (values: EditTagValues) => {
    if (tag === null) return;
    const edit = tagEditFrom(tag, values);
    if (!edit) {
      notify.warning(t('errors:channel_tag_no_changes'));
      return;
    }
    editTag.mutate(edit, {
      onSuccess: () => {
        notify.success(t('channel.tag_saved'));
        onClose();
      },
    });
  };

  const integerRule = (min: number, message: string) => ({
    validator: (_: unknown, value: number | null) =>
      value === null || value === undefined || (Number.isInteger(value) && value >= min)
        ? Promise.resolve()
        : Promise.reject(new Error(message)),
  });

  return (
    <Modal
      open={tag !== null}
      title={t('channel.tag_edit_title', { tag: tag ?? '' })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('ui.save')}
      cancelText={t('ui.cancel')}
      confirmLoading={editTag.isPending}
      destroyOnHidden
      width={640}
    >
      <Alert type="info" showIcon title={t('channel.tag_edit_help')} style={{ marginBottom: 16 }} />
      <Form<EditTagValues>
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ new_tag: tag ?? '', model_mapping: '', groups: [], models: [], priority: null, weight: null }}
        onFinish={onFinish}
      >
        <Form.Item name="new_tag" label={t('channel.tag_new_name')} extra={t('channel.tag_new_name_help')}>
          <Input maxLength={128} allowClear />
        </Form.Item>
        <Form.Item
          name="model_mapping"
          label={t('channel_form.model_mapping')}
          rules={[
            {
              validator: (_, value: string) =>
                parseJsonObjectField(value).ok
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('errors:channel_model_mapping_invalid'))),
            },
          ]}
        >
          <Input.TextArea
            autoSize={{ minRows: 3, maxRows: 8 }}
            placeholder={t('channel_form.model_mapping_placeholder')}
            className="mono-text"
          />
        </Form.Item>
        <Form.Item name="groups" label={t('channel_form.groups')}>
          <Select
            mode="multiple"
            allowClear
            placeholder={t('channel.unchanged')}
            loading={groups.isPending}
            options={(groups.data ?? []).map((group) => ({ value: group, label: group }))}
          />
        </Form.Item>
        <Form.Item name="models" label={t('channel_form.models')}>
          <Select mode="tags" allowClear placeholder={t('channel.unchanged')} tokenSeparators={[',']} open={false} />
        </Form.Item>
        <Form.Item
          name="priority"
          label={t('channel_form.priority')}
          rules={[integerRule(CHANNEL_PRIORITY_MIN, t('errors:channel_priority_invalid'))]}
        >
          <InputNumber precision={0} placeholder={t('channel.unchanged')} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          name="weight"
          label={t('channel_form.weight')}
          rules={[integerRule(0, t('errors:channel_weight_invalid'))]}
        >
          <InputNumber precision={0} placeholder={t('channel.unchanged')} style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
