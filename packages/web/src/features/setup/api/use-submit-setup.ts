import { useMutation } from '@tanstack/react-query';
import { requestEnvelope } from '../../../lib/api';

/** Body of `POST /api/setup` (field names are the family's wire names). */
export interface SetupSubmission {
  username: string;
  password: string;
  confirmPassword: string;
  SelfUseModeEnabled: boolean;
  DemoSiteEnabled: boolean;
  /** The one-time token the server printed at first start (only when `GET /api/setup` says it is needed). */
  setup_token?: string;
}

export function useSubmitSetup() {
  return useMutation({
    // The whole envelope: its message is the success text to show.
    mutationFn: (body: SetupSubmission) => requestEnvelope<unknown>('POST', '/api/setup', { body }),
    // Network failures get a setup-specific text; the page decides.
    meta: { silentError: true },
  });
}
