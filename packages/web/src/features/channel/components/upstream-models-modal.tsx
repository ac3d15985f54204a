import { Button, Checkbox, Divider, Empty, Flex, Modal, Space, Switch, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { useUpstreamWatch } from '../api/use-upstream-watch';
import { channelWatch } from '../channel-view';
import type { Channel } from '../types';

/** A list of found model names with checkboxes and the actions that settle them. */
function Found({
  title,
  names,
  actions,
  testId,
}: {
  title: string;
  names: string[];
  actions: (selected: string[], clear: () => void) => React.ReactNode;
  testId: string;
}) {
  const [selected, setSelected] = useState<string[]>([]);
  const shown = selected.filter((name) => names.includes(name));
  if (names.length === 0) return null;
  return (
    <Flex vertical gap={8} data-testid={testId}>
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Typography.Text strong>{title}</Typography.Text>
        <Checkbox
          checked={shown.length === names.length}
          indeterminate={shown.length > 0 && shown.length < names.length}
          onChange={(event) => setSelected(event.target.checked ? names : [])}
        />
      </Flex>
      <Checkbox.Group value={shown} onChange={(values) => setSelected(values as string[])}>
        <Flex wrap gap={8}>
          {names.map((name) => (
            <Checkbox key={name} value={name}>
              <Tag className="mono-text">{name}</Tag>
            </Checkbox>
          ))}
        </Flex>
      </Checkbox.Group>
      <Space wrap>{actions(shown, () => setSelected([]))}</Space>
    </Flex>
  );
}

/**
 * A channel's upstream model watch: whether the server checks the upstream's model list on a schedule (and adds new
 * models by itself), a check on demand, and what the last check found, to add, remove or ignore.
 */
export function UpstreamModelsModal({
  channel,
  open,
  onClose,
}: {
  channel: Channel;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const watch = channelWatch(channel);
  const { setWatch, check, apply } = useUpstreamWatch(channel.id);
  const act = (body: { add?: string[]; remove?: string[]; ignore?: string[] }, clear: () => void) =>
    apply.mutate(body, {
      onSuccess: () => {
        clear();
        notify.success(t('upstream_watch.applied'));
      },
    });
  const nothing = watch.detected.length === 0 && watch.removed.length === 0;
  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      title={t('upstream_watch.title', { name: channel.name })}
      destroyOnHidden
      data-testid="upstream-models-modal"
    >
      <Flex vertical gap={12}>
        <Flex justify="space-between" align="center" gap={12}>
          <Typography.Text>{t('upstream_watch.check_enabled')}</Typography.Text>
          <Switch
            checked={watch.checkEnabled}
            loading={setWatch.isPending}
            onChange={(on) => setWatch.mutate({ check_enabled: on, auto_sync: on && watch.autoSync })}
            data-testid="upstream-watch-switch"
          />
        </Flex>
        <Flex justify="space-between" align="center" gap={12}>
          <Typography.Text type={watch.checkEnabled ? undefined : 'secondary'}>
            {t('upstream_watch.auto_sync')}
          </Typography.Text>
          <Switch
            checked={watch.autoSync}
            disabled={!watch.checkEnabled}
            loading={setWatch.isPending}
            onChange={(on) => setWatch.mutate({ check_enabled: watch.checkEnabled, auto_sync: on })}
          />
        </Flex>
        <Typography.Text type="secondary">{t('upstream_watch.help')}</Typography.Text>
        <Flex justify="space-between" align="center" wrap gap={8}>
          <Typography.Text type="secondary">
            {watch.lastCheckTime
              ? t('upstream_watch.last_check', { time: dayjs.unix(watch.lastCheckTime).format('YYYY-MM-DD HH:mm') })
              : t('upstream_watch.never_checked')}
          </Typography.Text>
          <Button
            loading={check.isPending}
            onClick={() => check.mutate(undefined, { onSuccess: () => notify.success(t('upstream_watch.checked')) })}
            data-testid="upstream-check-now"
          >
            {t('upstream_watch.check_now')}
          </Button>
        </Flex>
        <Divider style={{ margin: 0 }} />
        {nothing ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('upstream_watch.nothing')} />
        ) : (
          <>
            <Found
              title={t('upstream_watch.detected', { count: watch.detected.length })}
              names={watch.detected}
              testId="upstream-detected"
              actions={(selected, clear) => (
                <>
                  <Button
                    type="primary"
                    disabled={!selected.length}
                    loading={apply.isPending}
                    onClick={() => act({ add: selected }, clear)}
                  >
                    {t('upstream_watch.add')}
                  </Button>
                  <Button disabled={!selected.length} onClick={() => act({ ignore: selected }, clear)}>
                    {t('upstream_watch.ignore')}
                  </Button>
                </>
              )}
            />
            <Found
              title={t('upstream_watch.removed', { count: watch.removed.length })}
              names={watch.removed}
              testId="upstream-removed"
              actions={(selected, clear) => (
                <Button danger disabled={!selected.length} onClick={() => act({ remove: selected }, clear)}>
                  {t('upstream_watch.remove')}
                </Button>
              )}
            />
          </>
        )}
      </Flex>
    </Modal>
  );
}
