import { TagsOutlined } from '@ant-design/icons';
import { Card, Checkbox, Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CardList } from '../../../components/list/card-list';
import { type ChannelRow, commaList } from '../channel-view';
import type { Channel } from '../types';
import { BalanceCell, ChannelName, ChannelStatusTag, ChannelTypeTag, GroupTags, LatencyTag } from './channel-cells';
import { type ChannelActions, ChannelRowActions, type ChannelTableProps, TagRowActions } from './channel-table';

function ChannelCard({
  channel,
  tagMode,
  selectedKeys,
  onSelect,
  actions,
}: { channel: Channel; tagMode: boolean; actions: ChannelActions } & Pick<
  ChannelTableProps,
  'selectedKeys' | 'onSelect'
>) {
  const { t } = useTranslation();
  const key = `c${channel.id}`;
  return (
    <Card size="small" className="list-card" data-testid="channel-card">
      <Flex justify="space-between" align="center" gap={8}>
        <Checkbox
          checked={selectedKeys.includes(key)}
          onChange={(event) =>
            onSelect(
              event.target.checked ? [...selectedKeys, key] : selectedKeys.filter((selected) => selected !== key),
            )
          }
        >
          <Typography.Text type="secondary">#{channel.id}</Typography.Text>
        </Checkbox>
        <ChannelStatusTag channel={channel} />
      </Flex>
      <ChannelName channel={channel} showTag={!tagMode} />
      <dl className="list-card-facts">
        <dt>{t('channel.col_type')}</dt>
        <dd>
          <ChannelTypeTag type={channel.type} />
        </dd>
        <dt>{t('channel.col_group')}</dt>
        <dd>
          <GroupTags groups={commaList(channel.group)} />
        </dd>
        <dt>{t('channel.col_response_time')}</dt>
        <dd>
          <LatencyTag
            channel={channel}
            testing={actions.testingId === channel.id}
            failure={actions.testFailures[channel.id]}
            onTest={() => actions.test(channel)}
          />
        </dd>
        <dt>{t('channel.col_balance')}</dt>
        <dd>
          <BalanceCell
            channel={channel}
            updating={actions.balancingId === channel.id}
            onUpdate={() => actions.updateBalance(channel)}
          />
        </dd>
        <dt>{t('channel.col_priority')}</dt>
        <dd>
          {channel.priority} · {t('channel.col_weight')} {channel.weight}
        </dd>
      </dl>
      <Flex justify="flex-end">
        <ChannelRowActions channel={channel} actions={actions} />
      </Flex>
    </Card>
  );
}

/**
 * The channel list on a phone: a card per channel (and a card per tag in tag mode, its channels inside), like the
 * token, log and user lists, instead of a table clipped at the screen's edge.
 */
export function ChannelCards({
  rows,
  loading,
  pagination,
  tagMode,
  selectedKeys,
  onSelect,
  actions,
  empty,
}: ChannelTableProps) {
  const { t } = useTranslation();
  return (
    <CardList<ChannelRow> items={rows} loading={loading} pagination={pagination} empty={empty} testId="channel-table">
      {(row) =>
        row.kind === 'channel' ? (
          <ChannelCard
            key={row.key}
            channel={row.channel}
            tagMode={tagMode}
            selectedKeys={selectedKeys}
            onSelect={onSelect}
            actions={actions}
          />
        ) : (
          <Card
            key={row.key}
            size="small"
            className="list-card"
            title={
              <Flex gap={6} align="center">
                <TagsOutlined />
                <Typography.Text strong>{row.tag}</Typography.Text>
                <Tag variant="filled">{t('channel.tag_count', { count: row.channels.length })}</Tag>
              </Flex>
            }
            extra={<TagRowActions tag={row.tag} channels={row.channels} actions={actions} />}
          >
            <Flex vertical gap={8}>
              {row.channels.map((channel) => (
                <ChannelCard
                  key={channel.id}
                  channel={channel}
                  tagMode={tagMode}
                  selectedKeys={selectedKeys}
                  onSelect={onSelect}
                  actions={actions}
                />
              ))}
            </Flex>
          </Card>
        )
      }
    </CardList>
  );
}
