import type { PublicStatus } from '@gateway/shared';

/** Registration is offered unless the operator closed it or runs the site for themselves only. */
export function canRegister(status: Partial<PublicStatus>): boolean {
  return status.register_enabled !== false && status.self_use_mode_enabled !== true;
}
