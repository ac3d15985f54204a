import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requestEnvelope } from '../../../lib/api';
import type { ChannelTestResult } from '../types';
import { channelsQueryKey } from './use-channels';

/** Tests one channel (optionally with a model); the family answers `time` at the top level, newer servers in data. */
export function useTestChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    // The page's own toast names the channel; the generic one would only repeat the reason without it.
    meta: { silentError: true },
    mutationFn: async ({ id, model }: { id: number; model?: string }): Promise<ChannelTestResult> => {
      const envelope = await requestEnvelope<Partial<ChannelTestResult>>('GET', `/api/channel/test/${id}`, {
        query: { model: model || undefined },
      });
      const time = (envelope as { time?: number }).time ?? envelope.data?.time ?? 0;
      return { success: true, message: envelope.message, time };
    },
    // A failed test still recorded its outcome (status, response time): show the fresh row either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: channelsQueryKey }),
  });
}
