// Numeric enums shared by server and console. The numbers are the wire values of this gateway family:
// changing one breaks every existing client and imported database.

export const Role = { Guest: 0, Common: 1, Admin: 10, Root: 100 } as const;
export type RoleValue = (typeof Role)[keyof typeof Role];

export const UserStatus = { Enabled: 1, Disabled: 2, Frozen: 3 } as const;
export const TokenStatus = { Enabled: 1, Disabled: 2, Expired: 3, Exhausted: 4 } as const;
export const ChannelStatus = { Unknown: 0, Enabled: 1, ManuallyDisabled: 2, AutoDisabled: 3 } as const;
export const RedemptionStatus = { Unused: 1, Disabled: 2, Used: 3 } as const;

export const LogType = { Unknown: 0, TopUp: 1, Consume: 2, Manage: 3, System: 4, Error: 5 } as const;
export type LogTypeValue = (typeof LogType)[keyof typeof LogType];

export const TopUpStatus = { Pending: 'pending', Success: 'success', Failed: 'failed', Expired: 'expired' } as const;

export function isAdmin(role: number | undefined | null): boolean {
  return (role ?? 0) >= Role.Admin;
}

export function isRoot(role: number | undefined | null): boolean {
  return (role ?? 0) >= Role.Root;
}
