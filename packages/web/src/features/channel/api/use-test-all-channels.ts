import { useMutation } from '@tanstack/react-query';
import { requestEnvelope } from '../../../lib/api';
import type { TestAllProgress } from '../types';

/** Starts testing every channel in the background (or joins the run already going). */
export function useTestAllChannels() {
  return useMutation({
    mutationFn: () => requestEnvelope<TestAllProgress>('GET', '/api/channel/test'),
  });
}
