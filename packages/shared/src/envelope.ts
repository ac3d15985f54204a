/** Every `/api` answer has this shape; HTTP status stays 200 for business failures (family convention). */
export interface ApiEnvelope<T = unknown> {
  success: boolean;
  message: string;
  data?: T;
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;
