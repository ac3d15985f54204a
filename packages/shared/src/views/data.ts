// The usage dashboard's answer (`GET /api/data/`, `/api/data/self`).

/** One `quota_data` row of `GET /api/data/` (admin) or `/api/data/self`: a user's use of a model in one hour. */
export interface QuotaDataView {
  id: number;
  user_id: number;
  username: string;
  model_name: string;
  /** Start of the hour, unix seconds. */
  created_at: number;
  count: number;
  quota: number;
  token_used: number;
}
